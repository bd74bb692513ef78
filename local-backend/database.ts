/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly), with the Supabase
 * roles and every migration in supabase/migrations applied once, in filename order.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";

import { LocalBackendError, oneLine } from "./errors";
import { defaultMigrationsDir, pgDataDir } from "./paths";

/** The database records migrations this version does not have or has changed: its requests are carried over (data-folder.ts). */
export class MadeByOlderVersion extends LocalBackendError {
  constructor(older: readonly string[]) {
    super(
      `The local database was made by an older version of this project (it records ${older.length} migrations this version does not have or has changed, first ${older[0]}): ` +
        "carry its requests over with `npm run requests -- --restore`.",
      "migration",
    );
  }
}

/** The roles Supabase has on every project (made together, so one existing means all do). */
const CREATE_ROLES_SQL = `
do $$
begin
  create role anon nologin noinherit;
  create role authenticated nologin noinherit;
  create role service_role nologin noinherit bypassrls;
exception when duplicate_object then null;
end
$$;
create schema if not exists local_backend;
create table if not exists local_backend.applied_migrations (
  name text primary key,
  checksum text not null,
  applied_at timestamptz not null default now()
);
`;

function lineOf(sql: string, position: unknown): string {
  const offset = Number(position);
  if (!Number.isFinite(offset) || offset < 1) return "";
  return ` (line ${sql.slice(0, offset - 1).split("\n").length})`;
}

export function listMigrations(migrationsDir: string): string[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
}

/** Applies every migration not yet recorded in local_backend.applied_migrations. */
export async function applyMigrations(
  db: PGlite,
  migrationsDir: string,
  log: (line: string) => void = () => {},
): Promise<string[]> {
  await db.exec(CREATE_ROLES_SQL);
  const done = new Map(
    (
      await db.query<{ name: string; checksum: string }>(
        "select name, checksum from local_backend.applied_migrations",
      )
    ).rows.map((row) => [row.name, row.checksum]),
  );
  // A migration applied with other contents counts as one this version does not have.
  const migrations = listMigrations(migrationsDir).map((name) => {
    const sql = fs.readFileSync(path.join(migrationsDir, name), "utf8");
    return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
  });
  const older = [...done]
    .filter(
      ([name, checksum]) => !migrations.some((m) => m.name === name && m.checksum === checksum),
    )
    .map(([name]) => name)
    .sort();
  if (older.length > 0) throw new MadeByOlderVersion(older);
  const applied: string[] = [];
  for (const { name, sql, checksum } of migrations) {
    if (done.has(name)) continue;
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query(
          "insert into local_backend.applied_migrations (name, checksum) values ($1, $2)",
          [name, checksum],
        );
      });
    } catch (error) {
      const position = (error as { position?: unknown }).position;
      throw new LocalBackendError(
        `Migration ${name} failed${lineOf(sql, position)}: ${oneLine(error)}`,
        "migration",
      );
    }
    applied.push(name);
    log(`Applied migration ${name}`);
  }
  return applied;
}

/**
 * Opens (or creates) the database in `dataDir`'s `pgdata/` (in memory without one) and applies the
 * migrations it lacks. A folder's database made by an older version is opened as it is, flagged.
 */
export async function openDatabase(
  options: { dataDir?: string; log?: (line: string) => void } = {},
): Promise<{ db: PGlite; madeByOlderVersion?: boolean }> {
  let db: PGlite;
  try {
    db = await PGlite.create(
      options.dataDir === undefined ? undefined : pgDataDir(options.dataDir),
    );
  } catch (error) {
    const where = options.dataDir === undefined ? "in memory" : `in ${options.dataDir}`;
    throw new LocalBackendError(`Could not open the local database ${where}: ${oneLine(error)}`);
  }
  try {
    await applyMigrations(db, defaultMigrationsDir(), options.log);
    return { db };
  } catch (error) {
    if (error instanceof MadeByOlderVersion && options.dataDir !== undefined)
      return { db, madeByOlderVersion: true };
    await db.close().catch(() => {});
    if (error instanceof LocalBackendError) throw error;
    throw new LocalBackendError(`Could not prepare the local database: ${oneLine(error)}`);
  }
}

/** Runs tasks one after another, each with the database to itself (PGlite has one connection). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    // PGlite runs on this thread and resolves through microtasks only: without a turn of the
    // event loop between tasks, a busy queue would starve socket reads and stretch latency.
    const result = this.tail
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(task);
    this.tail = result.catch(() => {});
    return result;
  }

  /** Resolves once everything queued so far has finished. */
  async idle(): Promise<void> {
    let tail;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }
}

/** How a request was screened and whether staff were told: its row of meeting_requests_overview. */
export interface RequestStatus {
  /** null: not screened (a staff insert). */
  screening: "page-verified" | "awaiting-proof" | "suspect" | null;
  page_proof: string | null;
  screening_signals: string[] | null;
  one_by_one_budget: string | null;
  /** null: no delivery record. */
  notification: "pending" | "delivered" | "skipped" | "held" | "digest" | "digested" | null;
  notified_at: string | null;
  notification_attempts: number | null;
  notification_error: string | null;
  next_attempt_at: string | null;
  held_for: string[] | null;
  digest: number | null;
  digest_rank: number | null;
  digest_sent_at: string | null;
}

/** A stored meeting request, as staff see it. */
export interface StoredRequest {
  id: number;
  created_at: string;
  name: string;
  email: string;
  organization: string;
  message: string;
  status?: RequestStatus;
}

/**
 * All meeting requests, newest first (as the superuser: reads bypass row-level security), or
 * with `lastInserted` only the row this connection inserted last (for the journal).
 */
export async function readRequests(
  db: Pick<PGlite, "query">,
  lastInserted = false,
): Promise<StoredRequest[]> {
  // As UTF-8 bytes decoded with ignoreBOM: PGlite's decoding would drop a leading byte-order mark.
  type Row = Record<"name" | "email" | "organization" | "message", Uint8Array>;
  // The journal needs the row alone: the overview is computed over every request.
  const [status, from] = lastInserted
    ? ["null", "where c.id = currval(pg_catalog.pg_get_serial_sequence('public.contacts', 'id'))"]
    : [
        "to_jsonb(o) - array['id', 'created_at', 'name', 'organization', 'email', 'message']",
        "join public.meeting_requests_overview o on o.id = c.id",
      ];
  const result = await db.query<Row & { id: string; created_at: string; status: RequestStatus }>(
    `select c.id::text as id,
            to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
            convert_to(c.name, 'UTF8') as name, convert_to(c.email, 'UTF8') as email,
            convert_to(c.organization, 'UTF8') as organization, convert_to(c.message, 'UTF8') as message,
            ${status} as status
       from public.contacts c ${from}
      order by c.created_at desc, c.id desc`,
  );
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  return result.rows.map((row) => ({
    ...row,
    id: Number(row.id),
    name: decoder.decode(row.name),
    email: decoder.decode(row.email),
    organization: decoder.decode(row.organization),
    message: decoder.decode(row.message),
  }));
}
