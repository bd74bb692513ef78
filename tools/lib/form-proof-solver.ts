/**
 * The page proof solved in Node as a flooder would: try n = 0, 1, 2, … until
 * hex(sha256(salt + n)) = challenge, with the one-shot `crypto.hash()` (the fastest plain Node way).
 */
import crypto from "node:crypto";

import { formProofPayload, type FormChallenge } from "../../src/lib/form-proof";

/**
 * Tries 0, 1, 2, … up to maxnumber; `stop()` is asked every 4,096 numbers. The x-form-proof header
 * value, or undefined when stopped or when no number fits.
 */
export function solveInNode(challenge: FormChallenge, stop: () => boolean): string | undefined {
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    if (number % 4096 === 0 && stop()) return undefined;
    if (crypto.hash("sha256", challenge.salt + number, "hex") === challenge.challenge)
      return formProofPayload(challenge, number);
  }
  return undefined;
}

/** SHA-256 hashes a second on this thread, over one second. */
export function nodeHashRate(): number {
  const salt = `${crypto.randomBytes(16).toString("hex")}?expires=1900000000&`;
  let number = 0;
  const started = performance.now();
  while (performance.now() - started < 1000)
    for (let i = 0; i < 1000; i += 1) crypto.hash("sha256", salt + number++, "hex");
  return number / ((performance.now() - started) / 1000);
}
