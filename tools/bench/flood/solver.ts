/**
 * The attacker's solver for the page proof (ALTCHA v1, SHA-256): the number n in
 * [0, maxnumber] with hex(sha256(salt + n)) = challenge, found by trying 0, 1, 2, … as the
 * page's worker does, but with the fastest plain Node way to hash. Three ways are measured on
 * this machine and the fastest is used (measureSolvers): a new hash per number, as the tests do;
 * the salt hashed once and `hash.copy()` per number; and the one-shot `crypto.hash()`
 * (Node 20.12+), which skips the Hash object altogether.
 */
import crypto from "node:crypto";

import { formProofPayload, type FormChallenge } from "../../../src/lib/form-proof";

export const SOLVER_NAMES = [
  "createHash per number",
  "hash.copy() after the salt",
  "crypto.hash() one-shot",
] as const;
export type SolverName = (typeof SOLVER_NAMES)[number];

/** Whether `number` is the answer: one SHA-256. */
type Tester = (number: number) => boolean;

function tester(name: SolverName, salt: string, challenge: string): Tester {
  switch (name) {
    case "createHash per number":
      return (number) =>
        crypto
          .createHash("sha256")
          .update(salt + number)
          .digest("hex") === challenge;
    case "hash.copy() after the salt": {
      const base = crypto.createHash("sha256").update(salt);
      return (number) => base.copy().update(String(number)).digest("hex") === challenge;
    }
    case "crypto.hash() one-shot":
      return (number) => crypto.hash("sha256", salt + number, "hex") === challenge;
  }
}

export interface Solution {
  /** The x-form-proof header value, or undefined when stopped or no number fits. */
  payload: string | undefined;
  /** Numbers tried (= hashes computed). */
  hashes: number;
}

/** How many numbers to try between two looks at `stop`. */
const BATCH = 4096;

/** Tries 0, 1, 2, … up to maxnumber; `stop()` is asked every few thousand hashes. */
export function solve(
  challenge: FormChallenge,
  name: SolverName,
  stop: () => boolean = () => false,
): Solution {
  const test = tester(name, challenge.salt, challenge.challenge);
  for (let start = 0; start <= challenge.maxnumber; start += BATCH) {
    if (stop()) return { payload: undefined, hashes: start };
    const end = Math.min(challenge.maxnumber, start + BATCH - 1);
    for (let number = start; number <= end; number += 1) {
      if (test(number)) return { payload: formProofPayload(challenge, number), hashes: number + 1 };
    }
  }
  return { payload: undefined, hashes: challenge.maxnumber + 1 };
}

/** SHA-256 hashes per second of each way on this thread, measured in turns (`ms` each, `rounds` times). */
export function measureSolvers(ms = 250, rounds = 3): Map<SolverName, number> {
  const salt = `${crypto.randomBytes(16).toString("hex")}?expires=1900000000&`;
  const never = "0".repeat(64);
  const best = new Map<SolverName, number>();
  for (let round = 0; round < rounds; round += 1) {
    for (const name of SOLVER_NAMES) {
      const test = tester(name, salt, never);
      let number = 0;
      const started = performance.now();
      while (performance.now() - started < ms) for (let i = 0; i < 1000; i += 1) test(number++);
      const rate = number / ((performance.now() - started) / 1000);
      best.set(name, Math.max(best.get(name) ?? 0, rate));
    }
  }
  return best;
}

/** The fastest way in `rates`. */
export function fastest(rates: Map<SolverName, number>): SolverName {
  return [...rates.entries()].sort(([, a], [, b]) => b - a)[0]![0];
}
