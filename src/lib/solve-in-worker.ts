/**
 * Runs the page proof's solver in a Web Worker (webpack 5 bundles `form-proof.worker.ts` as its
 * own file, fetched when the first proof is solved, never with the page's start-up JavaScript).
 * Jest maps this module to __mocks__/solve-in-worker.ts: `import.meta` is not CommonJS.
 */
import type { FormChallenge } from "./form-proof";
import type { FormProofWorkerAnswer } from "./form-proof.worker";

export function solveInWorker(challenge: FormChallenge): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./form-proof.worker.ts", import.meta.url));
    worker.addEventListener("message", (event: MessageEvent<FormProofWorkerAnswer>) => {
      worker.terminate();
      if ("payload" in event.data) resolve(event.data.payload);
      else reject(new Error(`The page-proof worker gave up: ${event.data.error}`));
    });
    worker.addEventListener("error", (event: ErrorEvent) => {
      worker.terminate();
      reject(new Error(`The page-proof worker failed: ${event.message || "it could not start"}`));
    });
    worker.postMessage(challenge);
  });
}
