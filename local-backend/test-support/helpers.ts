/** Shared by the tests of the local backend and of what runs against it (not a test file itself). */
import crypto from "node:crypto";

import type { PGlite, Transaction } from "@electric-sql/pglite";

import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { formProofPayload, type FormChallenge } from "../../src/lib/form-proof";

/** Opens something before the calling file's (or describe block's) tests and closes it after them; call the result for it. */
export function openedForTests<T extends { close(): Promise<unknown> }>(
  open: () => Promise<T>,
): () => T {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.close();
  });
  return () => opened!;
}

/** Resolves once `condition` holds, checked every 50 ms; throws after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export type ContactRow = Record<"name" | "email" | "organization" | "message", string>;

let counter = 0;

/** A distinct, valid address per call (the rate limit is per address). */
export function uniqueEmail(prefix = "visitor"): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now().toString(36)}.${counter}@example.org`;
}

/** A valid row; its message is distinct too (the screening flags one text sent three times in an hour). */
export function goodRow(overrides: Partial<Record<keyof ContactRow, unknown>> = {}): ContactRow {
  counter += 1;
  return {
    name: "Ada Lovelace",
    email: uniqueEmail(),
    organization: "Metro Transit Authority",
    message: `Fleet size: ${40 + counter}\nInterested in: demand-response scheduling`,
    ...overrides,
  } as ContactRow;
}

/** Runs `task` in a transaction as `role`, the way PostgREST does. */
export async function asRole<T>(
  db: PGlite,
  role: "anon" | "authenticated" | "service_role",
  task: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(
      "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)",
      [role, JSON.stringify({ role })],
    );
    return task(tx);
  });
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(
  promise: Promise<unknown>,
): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error("expected the promise to reject, but it resolved");
}

/** A POST of `body` as JSON to `<url>/rest/v1/<path>` with the anon key, as a script sends it: the answer's status. */
export async function postJson(
  url: string,
  body: unknown,
  { path = "contacts", headers = {} }: { path?: string; headers?: Record<string, string> } = {},
): Promise<number> {
  const response = await fetch(`${url}/rest/v1/${path}`, {
    method: "POST",
    headers: { apikey: LOCAL_ANON_KEY, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

export async function countRows(db: PGlite): Promise<number> {
  const result = await db.query<{ n: number }>("select count(*)::int as n from public.contacts");
  return result.rows[0]!.n;
}

let addressCounter = 0;

/** A distinct IPv4 address per call (198.51.100.0/24 and beyond: documentation ranges, never real visitors). */
export function uniqueAddress(): string {
  addressCounter += 1;
  return `198.51.${100 + Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/**
 * form_challenge() solved as the page's worker does, or as a flooder would, with the one-shot
 * `crypto.hash()`: tries 0, 1, 2, … up to maxnumber, asking `stop()` every 4,096 numbers. The
 * x-form-proof header value, or undefined when stopped or when no number fits.
 */
export function solveInNode(challenge: FormChallenge, stop: () => boolean): string | undefined {
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    if (number % 4096 === 0 && stop()) return undefined;
    if (crypto.hash("sha256", challenge.salt + number, "hex") === challenge.challenge)
      return formProofPayload(challenge, number);
  }
  return undefined;
}

/** The header for form_challenge(), in 30 ms (altcha-lib: 2.5 s). */
export function solveFormChallenge(challenge: FormChallenge): string {
  const header = solveInNode(challenge, () => false);
  if (header === undefined) throw new Error("the form challenge has no solution");
  return header;
}

/** A valid `x-form-proof` value, as the page makes it: a challenge from a backend's API, solved. */
export async function pageProofOverHttp(url: string, anonKey: string): Promise<string> {
  const response = await fetch(`${url}/rest/v1/rpc/form_challenge`, {
    method: "POST",
    headers: { apikey: anonKey, "Content-Type": "application/json" },
    body: "{}",
  });
  if (!response.ok) throw new Error(`rpc/form_challenge answered HTTP ${response.status}`);
  return solveFormChallenge((await response.json()) as FormChallenge);
}

/** A `pending:<ticket>` proof header and the ticket's hash (as form_proof_ticket_hash makes it). */
export function pendingProof(): { header: string; ticketHash: string } {
  const ticket = crypto.randomBytes(16).toString("hex");
  return {
    header: `pending:${ticket}`,
    ticketHash: crypto.createHash("sha256").update(ticket).digest("hex"),
  };
}

/** private.form_proof_confirmed replaced by a recorder of each ticket hash it is given. */
export const CONFIRMED_STUB_SQL = `
  create table if not exists private.confirmed_calls (ticket_hash text not null);
  create or replace function private.form_proof_confirmed(ticket_hash text)
    returns boolean language sql volatile set search_path = ''
  as $$ insert into private.confirmed_calls values (ticket_hash) returning true $$;
  revoke all on function private.form_proof_confirmed(text) from public, anon, authenticated;
`;

/** The screening's caps and budgets lifted, for tests sending many requests from one address. */
export const LIFTED_SCREENING = {
  unproved_per_address: 1_000_000,
  unproved_in_all: 1_000_000,
  one_by_one_per_address: 1_000_000,
  one_by_one_per_address_burst: 1_000_000,
  one_by_one_in_all: 1_000_000,
  challenges_at_base_difficulty: 1_000_000,
  challenges_per_address: 1_000_000,
} as const;
