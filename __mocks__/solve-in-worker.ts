/**
 * Jest's stand-in for src/lib/solve-in-worker.ts (jest.config.js maps it): the same solver,
 * altcha-lib's, on Node's crypto.subtle in this thread, since Jest has no Web Workers and no
 * `import.meta`.
 */
import { solveChallenge } from "altcha-lib/v1";
import { formProofPayload, type FormChallenge } from "../src/lib/form-proof";

export async function solveInWorker(challenge: FormChallenge): Promise<string> {
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution)
    throw new Error("The page-proof worker gave up: no number up to maxnumber solves it");
  return formProofPayload(challenge, solution.number);
}
