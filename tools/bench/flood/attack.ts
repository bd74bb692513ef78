/**
 * The flood's attackers, over plain HTTP from loopback source addresses (Node's localAddress), so
 * the screening tells them from the real visitors on 127.0.0.1: the direct one (case 3) and the
 * solving one's threads (attacker-worker.ts, cases 1 and 2). Their requests carry the headers the
 * page sends (insertHeaders).
 */
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

import { spamRequest } from "../../../supabase/tests/screening-corpus";
import { FORM_PROOF_HEADER } from "../../../src/lib/form-proof";

/** Counters by name ("insert 201", "pending", …); a "max …" one keeps its largest value. */
export type Tally = Record<string, number>;

export function count(tally: Tally, name: string, by = 1): void {
  tally[name] = (tally[name] ?? 0) + by;
}

function addTallies(a: Tally, b: Tally): Tally {
  const sum = { ...a };
  for (const [name, value] of Object.entries(b))
    sum[name] = name.startsWith("max ")
      ? Math.max(sum[name] ?? 0, value)
      : (sum[name] ?? 0) + value;
  return sum;
}

export type AttackResult = { tally: Tally; seconds: number; threads?: number };

const { version } = createRequire(__filename)("@supabase/supabase-js/package.json") as {
  version: string;
};

/** A key (the public anon key: the page's `rpc/form_challenge` call) as apikey and Bearer, and JSON. */
export function keyHeaders(key: string): Record<string, string> {
  return {
    apikey: key,
    Authorization: `Bearer ${key}`,
    "Content-Type": "application/json",
  };
}

/** supabase-js's insert headers as a browser sends them, and the page's proof. */
export function insertHeaders(anonKey: string, proof: string): Record<string, string> {
  return {
    "X-Client-Info": `supabase-js-web/${version}`,
    ...keyHeaders(anonKey),
    "Content-Profile": "public",
    [FORM_PROOF_HEADER]: proof,
  };
}

/** One POST from `localAddress` on a new connection; status 0 when it got no answer. */
export function postFrom(
  url: URL,
  localAddress: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const failed = () => resolve({ status: 0, text: "" });
    const request = http.request(url, { method: "POST", localAddress, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
      );
      response.on("error", failed);
    });
    request.setTimeout(30_000, () => request.destroy());
    request.on("error", failed);
    request.end(body);
  });
}

export const DIRECT_FROM = "127.0.0.2";
export const DIRECT_AT_ONCE = 20;

/**
 * Case 3, a script that never looks at the page: `requests` POSTs without a proof from
 * DIRECT_FROM, 20 at a time, spam text (supabase/tests/screening-corpus.ts) and a different spoofed
 * X-Forwarded-For / CF-Connecting-IP / X-Real-IP on each.
 */
export async function directFlood(url: string, anonKey: string, requests: number) {
  const tally: Tally = {};
  const started = Date.now();
  let next = 0;
  const sender = async () => {
    for (let index = next++; index < requests; index = next++) {
      const spoofed = `${((index * 7) % 223) + 1}.${index % 251}.${(index >> 8) % 251}.${(index % 200) + 1}`;
      const headers = {
        ...keyHeaders(anonKey),
        "X-Forwarded-For": spoofed,
        "CF-Connecting-IP": spoofed,
        "X-Real-IP": spoofed,
      };
      tally["max sent at"] = Date.now();
      const body = JSON.stringify(spamRequest(index));
      const answer = await postFrom(new URL("/rest/v1/contacts", url), DIRECT_FROM, headers, body);
      count(tally, `insert ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: DIRECT_AT_ONCE }, sender));
  return { tally, seconds: (Date.now() - started) / 1000 } satisfies AttackResult;
}

/** The solving attacker's source addresses: 127.0.0.2 alone, or 127.0.0.10 onwards. */
export function attackerAddresses(count: number): string[] {
  return count === 1 ? ["127.0.0.2"] : Array.from({ length: count }, (_, i) => `127.0.0.${10 + i}`);
}

export interface AttackerData {
  url: string;
  anonKey: string;
  addresses: string[];
  /** Int32Array[1]: the next request's number, shared by the threads (round robin of addresses). */
  counter: SharedArrayBuffer;
  /** Date.now() at which to stop (a solve in progress is abandoned). */
  deadline: number;
  worker: number;
}

/** Cases 1 and 2: one attacker-worker.ts thread per core for `seconds`, their tallies summed. */
export async function solvingAttack(options: {
  url: string;
  anonKey: string;
  addresses: string[];
  seconds: number;
}) {
  const threads = os.availableParallelism();
  const started = Date.now();
  const shared = {
    ...options,
    counter: new SharedArrayBuffer(4),
    deadline: started + options.seconds * 1000,
  };
  // A TypeScript worker under tsx: the thread registers tsx's require hook, then loads the file.
  const file = path.join(__dirname, "attacker-worker.ts");
  const source = `require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`;
  const thread = (worker: number) =>
    new Promise<Tally>((resolve, reject) => {
      const workerData: AttackerData = { ...shared, worker };
      const running = new Worker(source, { eval: true, workerData });
      let tally: Tally = {};
      running.on("message", (message: Tally) => {
        tally = message;
        void running.terminate();
      });
      running.on("error", reject);
      running.on("exit", (code) =>
        code <= 1
          ? resolve(tally)
          : reject(new Error(`attacker thread ${worker} exited with ${code}`)),
      );
    });
  const tallies = await Promise.all(Array.from({ length: threads }, (_, worker) => thread(worker)));
  const tally = tallies.reduce(addTallies, {});
  return { tally, seconds: (Date.now() - started) / 1000, threads } satisfies AttackResult;
}
