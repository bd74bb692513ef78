/** Shared bits for the local backend's tests (not a test file itself). */
import crypto from "node:crypto";

import type { PGlite, Transaction } from "@electric-sql/pglite";

import { formProofPayload, type FormChallenge } from "../src/lib/form-proof";
import { openDatabase } from "./database";

/**
 * Opens something before the calling file's (or describe block's) tests and closes it after them;
 * call the result for it.
 */
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

/** The migrated database (openDatabase) for the calling file's tests, `prepare`d once. */
export const migratedDatabase = (prepare?: (db: PGlite) => Promise<unknown>): (() => PGlite) =>
  openedForTests(async () => {
    const { db } = await openDatabase();
    await prepare?.(db);
    return db;
  });

export interface ContactRow {
  name: string;
  email: string;
  organization: string;
  message: string;
}

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

export async function countRows(db: PGlite): Promise<number> {
  const result = await db.query<{ n: number }>("select count(*)::int as n from public.contacts");
  return result.rows[0]!.n;
}

/** Insert as anon with plain SQL parameters. */
export function insertAs(tx: Transaction, row: object): Promise<unknown> {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`).join(", ");
  return tx.query(
    `insert into public.contacts (${columns.join(", ")}) values (${placeholders})`,
    Object.values(row),
  );
}

/** Text that must survive a round trip unchanged. */
export const TRICKY_TEXT: readonly string[] = [
  "Zoë Saldaña-Ñúñez, Łódź, Ærøskøbing",
  "東京都交通局 · 서울교통공사 · 北京公交集团",
  "🚌🚐🚎 transit 👩🏽‍💼 team 🇺🇸",
  "e\u0301 a\u0308 n\u0303 — combining marks (decomposed)",
  "Z\u0351\u0337\u0316a\u0352\u0338l\u036a\u0335g\u036ao",
  "שלום עולם — مرحبا بالعالم (RTL)",
  "\u202eevil\u202c and \u2066isolate\u2069",
  `quotes ' " \` and backslashes \\ \\\\ \\n (literal)`,
  "<script>alert('x')</script> & <b>bold</b> &amp;",
  "'; drop table contacts; --",
  "tab\there\r\nCRLF line\u2028line separator",
  "\u0001\u0007\u001b[31m control characters \u007f\u0085",
];

/** `request.headers` of a visitor: the client address the gateway sets, and any others. */
export function visitorHeaders(
  address: string,
  headers: Record<string, string> = {},
): Record<string, string> {
  return { "cf-connecting-ip": address, ...headers };
}

/** Runs `task` as anon with `request.headers` set as PostgREST sets them (what the screening reads). */
export async function asVisitor<T>(
  db: PGlite,
  headers: Record<string, string>,
  task: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(
      "select set_config('role', 'anon', true), set_config('request.jwt.claims', '{\"role\":\"anon\"}', true), set_config('request.headers', $1, true)",
      [JSON.stringify(headers)],
    );
    return task(tx);
  });
}

/**
 * Solves a challenge of public.form_challenge() as the page's worker does, giving the header
 * value. Node's synchronous sha256 (about 30 ms for a challenge) rather than altcha-lib's solver,
 * which awaits crypto.subtle once per number (about 2.5 s here): tests and the flood bench solve
 * dozens.
 */
export function solveFormChallenge(challenge: FormChallenge): string {
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    if (
      crypto.createHash("sha256").update(`${challenge.salt}${number}`).digest("hex") ===
      challenge.challenge
    ) {
      return formProofPayload(challenge, number);
    }
  }
  throw new Error("the form challenge has no solution");
}

/**
 * A valid `x-form-proof` value, as the page's worker makes it: a challenge from
 * public.form_challenge() (20261124100000_form_proof.sql), solved. A proof counts once. The
 * challenge is asked for from an address of its own (TEST-NET-2), as by a visitor who asked for
 * none before: its difficulty is the base one, however many proofs a test needs.
 */
export async function pageProof(db: Pick<PGlite, "transaction">): Promise<string> {
  const challenge = await db.transaction(async (tx) => {
    await tx.query("select set_config('request.headers', $1, true)", [
      JSON.stringify(visitorHeaders(uniqueAddress())),
    ]);
    return (await tx.query<{ c: FormChallenge }>("select public.form_challenge() as c")).rows[0]!.c;
  });
  return solveFormChallenge(challenge);
}

let addressCounter = 0;

/** A distinct IPv4 address per call (198.51.100.0/24 and beyond: documentation ranges, never real visitors). */
export function uniqueAddress(): string {
  addressCounter += 1;
  return `198.51.${100 + Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/** The same through a backend's API, as the page fetches it (`POST /rest/v1/rpc/form_challenge`). */
export async function pageProofOverHttp(url: string, anonKey: string): Promise<string> {
  const response = await fetch(`${url}/rest/v1/rpc/form_challenge`, {
    method: "POST",
    headers: { apikey: anonKey, "Content-Type": "application/json" },
    body: "{}",
  });
  if (!response.ok) throw new Error(`rpc/form_challenge answered HTTP ${response.status}`);
  return solveFormChallenge((await response.json()) as FormChallenge);
}

/**
 * private.form_proof_confirmed replaced by a recorder of each ticket hash it is given (for the
 * page-proof tests, in place of the screening migration's own, 20261124110000).
 */
export const CONFIRMED_STUB_SQL = `
  create table if not exists private.confirmed_calls (ticket_hash text not null);
  create or replace function private.form_proof_confirmed(ticket_hash text)
    returns boolean language sql volatile set search_path = ''
  as $$ insert into private.confirmed_calls values (ticket_hash) returning true $$;
  revoke all on function private.form_proof_confirmed(text) from public, anon, authenticated;
`;

/** A `pending:<ticket>` proof header and the ticket's hash (as form_proof_ticket_hash makes it). */
export function pendingProof(): { header: string; ticketHash: string } {
  const ticket = crypto.randomBytes(16).toString("hex");
  return {
    header: `pending:${ticket}`,
    ticketHash: crypto.createHash("sha256").update(ticket).digest("hex"),
  };
}

/**
 * The caps on requests without a page proof and the budgets of one-by-one e-mails lifted
 * (private.screening_settings, as a local backend's `screening` option takes them), for tests of
 * the insert path itself that send many requests from one loopback address.
 */
export const LIFTED_SCREENING = {
  unproved_per_address: 1_000_000,
  unproved_in_all: 1_000_000,
  one_by_one_per_address: 1_000_000,
  one_by_one_per_address_burst: 1_000_000,
  one_by_one_in_all: 1_000_000,
  challenges_at_base_difficulty: 1_000_000,
  challenges_per_address: 1_000_000,
} as const;

/** A row of public.claim_contact_digest (20261126120000_digest_lists_every_request.sql). */
export interface DigestClaim {
  digest_id: number;
  lease_token: string;
  attempt: number;
  request_count: number;
  client_count: number;
  interval_seconds: number;
  reasons: Record<string, number>;
  requests: {
    id: number;
    name: string;
    organization: string;
    email: string;
    message: string;
    truncated: boolean;
    held_for: string[];
    signals: string[];
    same_address: number;
    copies: number;
  }[];
}
