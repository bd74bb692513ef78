/**
 * The old home of the test helpers, kept for the database tests until they move to
 * supabase/tests/: the shared helpers are in test-support/helpers.ts; what only those tests use
 * is below. Delete this file when they have moved.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";

import { solveFormChallenge, uniqueAddress, visitorHeaders } from "./test-support/helpers";
import type { FormChallenge } from "../src/lib/form-proof";

export * from "./test-support/helpers";

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
 * A valid `x-form-proof` value, as the page's worker makes it: a challenge from
 * public.form_challenge(), solved, asked for from an address of its own (its difficulty is the
 * base one, however many proofs a test needs). A proof counts once.
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

/** A row of public.claim_contact_digest. */
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
