/**
 * The harness of the database tests: a PGlite database set up as a new Supabase project is (its
 * API roles and default grants), migrated as the local backend migrates it, and the steps of a
 * visitor and of staff on it.
 */
import { PGlite, type Transaction } from "@electric-sql/pglite";

import type { FormChallenge } from "../../src/lib/form-proof";
import { applyMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import {
  asRole,
  goodRow,
  openedForTests,
  solveFormChallenge,
  uniqueAddress,
  type ContactRow,
} from "../../local-backend/test-support/helpers";

/** The API roles of every Supabase project, and what it grants them on whatever is created in public. */
export const SUPABASE_ROLES_SQL = `
  create role anon nologin noinherit;
  create role authenticated nologin noinherit;
  create role service_role nologin noinherit bypassrls;
  grant usage on schema public to anon, authenticated, service_role;
  alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;
`;

/** A new Supabase-like database with `before` run ahead of the migrations. */
export async function migrate(before = ""): Promise<PGlite> {
  const db = await PGlite.create();
  try {
    await db.exec(`${SUPABASE_ROLES_SQL}${before}`);
    await applyMigrations(db, defaultMigrationsDir());
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** The migrated database for the calling file's tests (opened before them, closed after), `after` run once. */
export function migrated(options: { before?: string; after?: string } = {}): () => PGlite {
  return openedForTests(async () => {
    const db = await migrate(options.before);
    if (options.after) await db.exec(options.after);
    return db;
  });
}

/** The first row's `value` of a query. */
export async function one<T>(db: PGlite, sql: string, params: unknown[] = []): Promise<T> {
  return (await db.query<{ value: T }>(sql, params)).rows[0]!.value;
}

/** Inserts `row` in `tx` (as whatever role `tx` has) with plain SQL parameters. */
export function insertAs(tx: Transaction, row: object): Promise<unknown> {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`).join(", ");
  return tx.query(
    `insert into public.contacts (${columns.join(", ")}) values (${placeholders})`,
    Object.values(row),
  );
}

/**
 * Runs `task` as anon with `request.headers` set as PostgREST sets them (what the screening reads;
 * the gateway sets the client address as cf-connecting-ip).
 */
export async function asVisitor<T>(
  db: PGlite,
  headers: Record<string, string>,
  task: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return asRole(db, "anon", async (tx) => {
    await tx.query("select set_config('request.headers', $1, true)", [JSON.stringify(headers)]);
    return task(tx);
  });
}

/** The rows `sql` gives the service role (the Edge Function's and staff's calls). */
export async function asStaff<T = Record<string, unknown>>(
  db: PGlite,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await asRole(db, "service_role", (tx) => tx.query<T>(sql, params))).rows;
}

/** The ids a sweep (claim_contact_notifications) leases, page-verified first, then oldest. */
export async function sweep(db: PGlite, maxCount: number): Promise<number[]> {
  const sql = "select id from public.claim_contact_notifications(max_count => $1)";
  return (await asStaff<{ id: number }>(db, sql, [maxCount])).map((row) => row.id);
}

/** `row` sent by a visitor from `address`, with `proof` as its x-form-proof header if any: its id. */
export async function sendRequest(
  db: PGlite,
  row: ContactRow,
  address: string,
  proof?: string,
): Promise<number> {
  const headers = { "cf-connecting-ip": address, ...(proof ? { "x-form-proof": proof } : {}) };
  await asVisitor(db, headers, (tx) => insertAs(tx, row));
  return one(db, "select max(id)::int as value from public.contacts");
}

/** A challenge of public.form_challenge(), asked for by anon from `address`. */
export const formChallenge = (db: PGlite, address: string): Promise<FormChallenge> =>
  asVisitor(
    db,
    { "cf-connecting-ip": address },
    async (tx) =>
      (await tx.query<{ c: FormChallenge }>("select public.form_challenge() as c")).rows[0]!.c,
  );

/**
 * A valid `x-form-proof` value, as the page's worker makes it: a challenge asked for from an
 * address of its own (so at the base difficulty, however many a test needs), solved. A proof
 * counts once.
 */
export async function pageProof(db: PGlite): Promise<string> {
  return solveFormChallenge(await formChallenge(db, uniqueAddress()));
}

/** A row of public.claim_contact_digest (the fields the tests read by name). */
export interface DigestClaim {
  digest_id: number;
  lease_token: string;
  attempt: number;
  request_count: number;
  reasons: Record<string, number>;
  requests: Record<string, unknown>[];
}

/**
 * The screening's steps on `db`: requests sent as visitors from an address (with the page's
 * proof, a pending ticket, or none), what became of them, and staff's digest calls. Each test
 * starts with no requests and no address has used its budgets.
 */
export function screeningSteps(db: () => PGlite) {
  beforeEach(async () => {
    await db().exec(`delete from public.contacts; delete from public.contact_digests;
      delete from private.one_by_one_pace; delete from private.form_challenges_issued;`);
  });

  const send = (row: ContactRow, address: string, proof?: string) =>
    sendRequest(db(), row, address, proof);

  return {
    send,
    /** A fresh proof per request: a real one is spent by its first use. */
    sendVerified: async (row = goodRow(), address = "198.51.100.7"): Promise<number> =>
      send(row, address, await pageProof(db())),
    screened: async (id: number) =>
      (
        await db().query<Record<string, unknown>>(
          `select s.verdict, s.proof, s.signals, s.budget, n.status, n.priority
             from public.contact_screening s join public.contact_notifications n using (contact_id)
            where s.contact_id = $1`,
          [id],
        )
      ).rows[0]!,
    confirm: (ticketHash: string): Promise<boolean> =>
      one(db(), "select private.form_proof_confirmed($1) as value", [ticketHash]),
    /** Ends the wait of request `id` for the page's proof. */
    waited: (id: number) =>
      db().query(
        "update public.contact_notifications set next_attempt_at = now() - interval '1 second' where contact_id = $1",
        [id],
      ),
    claimDigest: (leaseSeconds = 60) =>
      asStaff<DigestClaim>(db(), "select * from public.claim_contact_digest(lease_seconds => $1)", [
        leaseSeconds,
      ]),
    finishDigest: async (id: number, lease: string, failure: string | null) =>
      (
        await asStaff<{ recorded: boolean }>(
          db(),
          "select recorded from public.finish_contact_digest(digest_id => $1, lease => $2, failure => $3, retry_in_seconds => 0)",
          [id, lease, failure],
        )
      )[0]!.recorded,
    statuses: async () =>
      (
        await db().query(
          "select status, count(*)::int as n from public.contact_notifications group by status order by status",
        )
      ).rows,
  };
}
