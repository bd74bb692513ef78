/**
 * One thread of the solving attacker (solvingAttack starts one per core). Until the deadline, round
 * robin over its source addresses: ask for a challenge, solve it, insert a plausible request with
 * the page's headers and the proof (or `pending:<ticket>` when refused, as the page does). Posts
 * its tally at the end.
 */
import crypto from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";

import type { FormChallenge } from "../../../src/lib/form-proof";
import { solveInNode } from "../../../local-backend/test-support/helpers";
import { keyHeaders, count, insertHeaders, postFrom, type AttackerData } from "./attack";
import { attackerRequest } from "./texts";

const data = workerData as AttackerData;
const counter = new Int32Array(data.counter);
const pastDeadline = (): boolean => Date.now() >= data.deadline;

async function attack(): Promise<void> {
  const tally: Record<string, number> = {};
  for (let sent = 0; !pastDeadline(); sent += 1) {
    const address = data.addresses[Atomics.add(counter, 0, 1) % data.addresses.length]!;
    const url = (path: string) => new URL(path, data.url);
    const answer = await postFrom(
      url("/rest/v1/rpc/form_challenge"),
      address,
      keyHeaders(data.anonKey),
      "{}",
    );
    let proof: string | undefined;
    if (answer.status === 200) {
      proof = solveInNode(JSON.parse(answer.text) as FormChallenge, pastDeadline);
      if (!proof) break; // the deadline came while solving
    }
    count(tally, proof ? "with proof" : "pending");
    // What the page sends when it has no proof at the tap: a ticket it would confirm later.
    const header = proof ?? `pending:${crypto.randomBytes(16).toString("hex")}`;
    const body = JSON.stringify(attackerRequest(sent, data.worker));
    tally["max sent at"] = Date.now();
    const inserted = await postFrom(
      url("/rest/v1/contacts"),
      address,
      insertHeaders(data.anonKey, header),
      body,
    );
    count(tally, `insert ${inserted.status}`);
  }
  parentPort!.postMessage(tally);
}

void attack();
