/**
 * The page proof (docs/database.md): an ALTCHA v1 challenge fetched after the first focus and
 * solved in a Web Worker. Every insert carries the FORM_PROOF_HEADER, read synchronously: the solved
 * payload when it is ready and young enough, otherwise `pending:<ticket>`, confirmed once the insert
 * is stored and the proof solved. A proof counts once; the next round waits for the next start(),
 * as the database makes each challenge of an address dearer than the last.
 */

export { FORM_PROOF_HEADER } from "./form-proof-header";

/**
 * How long the page uses a solved proof, by its own monotonic clock: well inside the challenge's
 * lifetime in the database (30 minutes; a migration test keeps them apart), so a slow network or a
 * wrong clock cannot make it expire on its way.
 */
export const FORM_PROOF_REUSE_MS = 10 * 60_000;

/** An ALTCHA v1 challenge as public.form_challenge() issues it. */
export type FormChallenge = {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
};

/** The ALTCHA v1 payload: base64 of the JSON the database's verdict decodes. */
export function formProofPayload(
  challenge: Pick<FormChallenge, "algorithm" | "challenge" | "salt" | "signature">,
  number: number,
): string {
  const { algorithm, challenge: hash, salt, signature } = challenge;
  return btoa(JSON.stringify({ algorithm, challenge: hash, number, salt, signature }));
}

/** Whether a parsed JSON value is a challenge this page can solve. */
export function isFormChallenge(value: unknown): value is FormChallenge {
  const candidate = value as Partial<FormChallenge> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    candidate.algorithm === "SHA-256" &&
    typeof candidate.challenge === "string" &&
    typeof candidate.salt === "string" &&
    typeof candidate.signature === "string" &&
    Number.isSafeInteger(candidate.maxnumber) &&
    (candidate.maxnumber ?? -1) >= 0
  );
}

/** 32 lowercase hex characters from the browser's strong random source. */
export function newTicket(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export type FormProofDependencies = {
  /** Asks the database for a challenge. */
  fetchChallenge: () => Promise<FormChallenge>;
  /** Solves it off the main thread; resolves with the payload. */
  solve: (challenge: FormChallenge) => Promise<string>;
  /** Tells the database that a pending ticket's request came from the page. */
  confirm: (ticket: string, payload: string) => Promise<void>;
  /** A monotonic clock in milliseconds (performance.now in the browser). */
  now: () => number;
  newTicket: () => string;
  /** Runs a task later, off the submit path (after the toast has had its turn). */
  later: (task: () => void, delayMs: number) => void;
  /** A proof that could not be had or confirmed: a note for the console, never an error. */
  log: (message: string, cause: unknown) => void;
};

type Round = {
  /** The ticket a pending header names; drawn when the round starts. */
  ticket: string;
  /** The solved payload and when it was ready (`now()`); absent until solved. */
  solved?: { payload: string; at: number };
  /** The proof being fetched and solved; resolves undefined when that failed. */
  work?: Promise<string | undefined>;
};

export type FormProof = {
  /** Starts fetching and solving a challenge, unless this round's is on its way (the form calls this at a focus). */
  start: () => void;
  /** The x-form-proof value for the next insert. Synchronous; the same until `sent`. */
  header: () => string;
  /** After an insert with `header`: once stored, the round is spent (a pending ticket gets confirmed); the next start() begins a new one. */
  sent: (header: string, stored: boolean) => void;
};

export function createFormProof(deps: FormProofDependencies): FormProof {
  let round: Round | undefined;

  const fresh = (solved: Round["solved"]): solved is NonNullable<Round["solved"]> =>
    solved !== undefined && deps.now() - solved.at < FORM_PROOF_REUSE_MS;

  const work = (target: Round): Promise<string | undefined> => {
    const attempt: Promise<string | undefined> = deps
      .fetchChallenge()
      .then(deps.solve)
      .then(
        (payload) => {
          if (target.work === attempt) {
            target.solved = { payload, at: deps.now() };
            // Replaced before it gets old, if the visitor is still on the form then.
            deps.later(() => {
              if (round === target && target.work === attempt) work(target);
            }, FORM_PROOF_REUSE_MS);
          }
          return payload;
        },
        (error: unknown) => {
          if (target.work === attempt) target.work = undefined; // the next need tries again
          deps.log("Page proof not ready: a request sent now goes as pending.", error);
          return undefined;
        },
      );
    target.solved = undefined;
    target.work = attempt;
    return attempt;
  };

  const current = (): Round => (round ??= { ticket: deps.newTicket() });

  const start = (): void => {
    const target = current();
    if (!target.work) work(target);
  };

  return {
    start,
    header() {
      const { ticket, solved } = current();
      return fresh(solved) ? solved.payload : `pending:${ticket}`;
    },
    sent(header, stored) {
      // A refused or failed insert spends nothing (the database rolls the transaction back, or
      // never saw it): the visitor's retry sends the same proof or ticket, and no new work starts.
      if (!stored) return;
      const used = round;
      round = undefined;
      if (!used || header !== `pending:${used.ticket}`) return;
      // The request waits as pending: confirm it with this round's proof (solved meanwhile, or
      // still being solved), or with a new one if there is none or it got too old.
      const proof = fresh(used.solved)
        ? Promise.resolve(used.solved.payload)
        : used.work && !used.solved
          ? used.work
          : work(used);
      void proof.then((payload) => {
        if (payload === undefined) return;
        deps.later(() => {
          deps
            .confirm(used.ticket, payload)
            .catch((error: unknown) => deps.log("Page proof not confirmed.", error));
        }, 0);
      });
    },
  };
}
