/**
 * How fast a flooder solves the page proof in Node: SHA-256 hashes a second with the one-shot
 * `crypto.hash()` (the fastest plain Node way). The solver itself: local-backend/test-support.
 */
import crypto from "node:crypto";

/** SHA-256 hashes a second on this thread, over one second. */
export function nodeHashRate(): number {
  const salt = `${crypto.randomBytes(16).toString("hex")}?expires=1900000000&`;
  let number = 0;
  const started = performance.now();
  while (performance.now() - started < 1000)
    for (let i = 0; i < 1000; i += 1) crypto.hash("sha256", salt + number++, "hex");
  return number / ((performance.now() - started) / 1000);
}
