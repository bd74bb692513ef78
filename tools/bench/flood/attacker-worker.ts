/**
 * One attacker thread (worker_threads; solving.ts starts one per core): the script a person who
 * read the page's code would write. Until the deadline, over and over: take the next source
 * address (round robin across threads), ask it for a challenge (`rpc/form_challenge`), solve it
 * with the fastest Node way (solver.ts), and insert a plausible request with exactly the page's
 * headers and the proof; when the challenge is refused, insert with `pending:<ticket>`, as the page does.
 */
import crypto from "node:crypto";
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

import type { FormChallenge } from "../../../src/lib/form-proof";
import { anonKeyHeaders, insertHeaders } from "./page-headers";
import { postFrom, type PostAnswer } from "./post";
import { solve, type SolverName } from "./solver";
import { emptyTally, type AttackerTally } from "./tally";
import { attackerRequest } from "./texts";

export interface AttackerWorkerData {
  url: string;
  anonKey: string;
  /** Source addresses (Node's localAddress), taken round robin through `counter`. */
  addresses: string[];
  /** Int32Array[1] over a SharedArrayBuffer: the next request's number, shared by the threads. */
  counter: SharedArrayBuffer;
  /** Date.now() at which to stop (a solve in progress is abandoned). */
  deadline: number;
  solver: SolverName;
  worker: number;
}

export type AttackerMessage = { type: "progress" | "done"; tally: AttackerTally };

const data = workerData as AttackerWorkerData;
const counter = new Int32Array(data.counter);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One POST from `address` on the kept-alive agent, as a browser sends it (post.ts). */
const post = (
  path: string,
  address: string,
  headers: Record<string, string>,
  body: string,
): Promise<PostAnswer> =>
  postFrom(new URL(path, data.url), { localAddress: address, agent, headers, body });

async function main(): Promise<void> {
  const tally = emptyTally();
  const pastDeadline = (): boolean => Date.now() >= data.deadline;
  let reported = Date.now();
  for (let sent = 0; !pastDeadline(); sent += 1) {
    const address = data.addresses[Atomics.add(counter, 0, 1) % data.addresses.length]!;
    const answer = await post(
      "/rest/v1/rpc/form_challenge",
      address,
      anonKeyHeaders(data.anonKey),
      "{}",
    );
    let proof: string | undefined;
    if (answer.status === 200) {
      tally.challengesGot += 1;
      const challenge = JSON.parse(answer.text) as FormChallenge;
      tally.maxnumber = Math.max(tally.maxnumber, challenge.maxnumber);
      const started = performance.now();
      const solution = solve(challenge, data.solver, pastDeadline);
      tally.solvingMs += performance.now() - started;
      tally.hashes += solution.hashes;
      if (!solution.payload) break; // the deadline came while solving
      proof = solution.payload;
    } else if (answer.status === 429) {
      tally.challengesRefused += 1;
    } else {
      tally.challengesFailed += 1;
    }
    // What the page sends when it has no proof at the tap: a ticket it would confirm later.
    const header = proof ?? `pending:${crypto.randomBytes(16).toString("hex")}`;
    const body = JSON.stringify(attackerRequest(sent, data.worker));
    tally.lastSentAt = Date.now();
    const inserted = await post(
      "/rest/v1/contacts",
      address,
      insertHeaders(data.anonKey, header),
      body,
    );
    tally.inserts[inserted.status] = (tally.inserts[inserted.status] ?? 0) + 1;
    if (proof) tally.insertsWithProof += 1;
    else tally.insertsPending += 1;
    if (inserted.status === 201) tally.lastStoredAt = Date.now();
    if (Date.now() - reported > 2_000) {
      reported = Date.now();
      parentPort!.postMessage({ type: "progress", tally } satisfies AttackerMessage);
    }
  }
  agent.destroy();
  parentPort!.postMessage({ type: "done", tally } satisfies AttackerMessage);
}

void main();
