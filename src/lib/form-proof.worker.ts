/**
 * The page proof's solver (src/lib/form-proof.ts), in a Web Worker so the search never touches
 * the main thread: tries 0, 1, 2, ... until SHA-256(salt + number) is the challenge, with
 * altcha-lib's own solver (crypto.subtle). Answers { payload } or { error }.
 */
import { solveChallenge } from "altcha-lib/v1";
import { formProofPayload, isFormChallenge } from "./form-proof";

export type FormProofWorkerAnswer = { payload: string } | { error: string };

const answer = (message: FormProofWorkerAnswer): void => self.postMessage(message);

self.addEventListener("message", (event: MessageEvent<unknown>) => {
  const challenge = event.data;
  if (!isFormChallenge(challenge)) {
    answer({ error: "not an ALTCHA SHA-256 challenge" });
    return;
  }
  solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise.then(
    (solution) =>
      answer(
        solution
          ? { payload: formProofPayload(challenge, solution.number) }
          : { error: "no number up to maxnumber solves it" },
      ),
    (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
  );
});
