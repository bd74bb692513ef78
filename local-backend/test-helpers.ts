/** Shared bits for the local backend's tests (not a test file itself). */
import type { PGlite, Transaction } from "@electric-sql/pglite";

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

export function goodRow(overrides: Partial<Record<keyof ContactRow, unknown>> = {}): ContactRow {
  return {
    name: "Ada Lovelace",
    email: uniqueEmail(),
    organization: "Metro Transit Authority",
    message: "Fleet size: 40\nInterested in: demand-response scheduling",
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
    await tx.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [
      role,
      JSON.stringify({ role }),
    ]);
    return task(tx);
  });
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
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
