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
import { challengeHeaders, insertHeaders } from "./page-headers";
import { solve, type SolverName } from "./solver";
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

export interface AttackerTally {
  challengesGot: number;
  challengesRefused: number;
  /** Challenge calls that failed otherwise (no answer, 5xx). */
  challengesFailed: number;
  /** The largest maxnumber of a challenge given. */
  maxnumber: number;
  hashes: number;
  /** Time spent hashing, in ms. */
  solvingMs: number;
  insertsWithProof: number;
  insertsPending: number;
  /** HTTP status → inserts (0: no answer). */
  inserts: Record<number, number>;
  /** Date.now() of the last insert answered 201 (0: none). */
  lastStoredAt: number;
  /** Date.now() of the last insert sent. */
  lastSentAt: number;
}

export type AttackerMessage = { type: "progress" | "done"; tally: AttackerTally };

const data = workerData as AttackerWorkerData;
const counter = new Int32Array(data.counter);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * One POST from `address`; status 0 when it got no answer. The agent keeps connections alive as
 * a browser does; a kept connection the server closed meanwhile (its keep-alive timeout, 5 s,
 * passes while a dear challenge is solved) fails at once, and the request is sent again on a new
 * one, as a browser retries it.
 */
function post(path: string, address: string, headers: Record<string, string>, body: string, retry = true): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const request = http.request(
      new URL(path, data.url),
      { method: "POST", agent, localAddress: address, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) }, timeout: 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", () => resolve({ status: 0, text: "" }));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
      resolve(stale && retry ? post(path, address, headers, body, false) : { status: 0, text: "" });
    });
    request.end(body);
  });
}

async function main(): Promise<void> {
  const tally: AttackerTally = {
    challengesGot: 0, challengesRefused: 0, challengesFailed: 0, maxnumber: 0, hashes: 0, solvingMs: 0,
    insertsWithProof: 0, insertsPending: 0, inserts: {}, lastStoredAt: 0, lastSentAt: 0,
  };
  const pastDeadline = (): boolean => Date.now() >= data.deadline;
  let reported = Date.now();
  for (let sent = 0; !pastDeadline(); sent += 1) {
    const address = data.addresses[Atomics.add(counter, 0, 1) % data.addresses.length]!;
    const answer = await post("/rest/v1/rpc/form_challenge", address, challengeHeaders(data.anonKey), "{}");
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
    const inserted = await post("/rest/v1/contacts", address, insertHeaders(data.anonKey, header), body);
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
