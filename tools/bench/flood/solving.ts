/**
 * `--mode solving` (cases 1 and 2): the attacker who solves the page proof as the page does,
 * one thread per core (attacker-worker.ts), for a given time, from one address (127.0.0.2) or
 * from 20 (127.0.0.10–29, round robin). Adds up the threads' tallies.
 */
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

import type { AttackerMessage, AttackerWorkerData } from "./attacker-worker";
import { fastest, measureSolvers, type SolverName } from "./solver";
import { addTallies, emptyTally, type AttackerTally } from "./tally";

/** The attacker's source addresses: 127.0.0.2 alone, or 127.0.0.10 onwards. */
export function attackerAddresses(count: number): string[] {
  return count === 1
    ? ["127.0.0.2"]
    : Array.from({ length: count }, (_, index) => `127.0.0.${10 + index}`);
}

export interface SolvingResult {
  threads: number;
  solver: SolverName;
  /** Each way's hashes per second on one thread, measured before the attack (this machine, idle bench). */
  solverRates: Map<SolverName, number>;
  tally: AttackerTally;
  seconds: number;
}

/** A TypeScript worker under tsx: the thread registers tsx's require hook, then loads the file. */
function startWorker(file: string, data: AttackerWorkerData): Worker {
  const source = `require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`;
  return new Worker(source, { eval: true, workerData: data });
}

/** Attacks until `seconds` have passed; `log` gets a line now and then. */
export async function solvingAttack(
  options: {
    url: string;
    anonKey: string;
    addresses: string[];
    seconds: number;
    solverRates?: Map<SolverName, number>;
  },
  log: (line: string) => void,
): Promise<SolvingResult> {
  const solverRates = options.solverRates ?? measureSolvers();
  const solver = fastest(solverRates);
  const threads = os.availableParallelism();
  const counter = new SharedArrayBuffer(4);
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const latest: AttackerTally[] = Array.from({ length: threads }, emptyTally);
  const progress = setInterval(() => {
    const sum = latest.reduce(addTallies, emptyTally());
    log(
      `attack +${Math.round((Date.now() - started) / 1000)} s: ${sum.challengesGot} challenges got, ${sum.challengesRefused} refused, ${sum.inserts[201] ?? 0} stored (201), ${sum.inserts[429] ?? 0} refused (429)`,
    );
  }, 30_000);
  try {
    await Promise.all(
      latest.map(
        (_, worker) =>
          new Promise<void>((resolve, reject) => {
            const thread = startWorker(path.join(__dirname, "attacker-worker.ts"), {
              url: options.url,
              anonKey: options.anonKey,
              addresses: options.addresses,
              counter,
              deadline,
              solver,
              worker,
            });
            thread.on("message", (message: AttackerMessage) => {
              latest[worker] = message.tally;
              if (message.type === "done") void thread.terminate().then(() => resolve());
            });
            thread.on("error", reject);
            thread.on("exit", (code) =>
              code === 0 || code === 1
                ? resolve()
                : reject(new Error(`attacker thread ${worker} exited with ${code}`)),
            );
          }),
      ),
    );
  } finally {
    clearInterval(progress);
  }
  return {
    threads,
    solver,
    solverRates,
    tally: latest.reduce(addTallies, emptyTally()),
    seconds: (Date.now() - started) / 1000,
  };
}
