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

export interface OpenDatabaseOptions {
  /** Folder that holds the data (PGlite files go in its `pgdata/`); undefined = in memory. */
  dataDir?: string;
  /** Defaults to supabase/migrations of the project. */
  migrationsDir?: string;
  /** Receives one line per notable event (migration applied, warnings). */
  log?: (line: string) => void;
}

export interface OpenedDatabase {
  db: PGlite;
  /** Migrations applied by this call (already applied ones are not repeated). */
  applied: string[];
}

/**
 * The roles Supabase has on every project. `service_role` bypasses row-level security there,
 * as here. They cannot log in: the server switches to them with `set local role`.
 */
const CREATE_ROLES_SQL = `
do $$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_catalog.pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_catalog.pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
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
  let names: string[];
  try {
    names = fs.readdirSync(migrationsDir);
  } catch (error) {
    throw new LocalBackendError(
      "migration",
      `Cannot read the migrations folder ${migrationsDir}: ${oneLine(error)}`,
    );
  }
  return names.filter((name) => name.endsWith(".sql")).sort();
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
  const applied: string[] = [];
  for (const name of listMigrations(migrationsDir)) {
    const sql = fs.readFileSync(path.join(migrationsDir, name), "utf8");
    const checksum = crypto.createHash("sha256").update(sql).digest("hex");
    const previous = done.get(name);
    if (previous !== undefined) {
      if (previous !== checksum) {
        log(
          `Warning: migration ${name} changed after it was applied to the local database; ` +
            `it is not applied again (add a new migration, or delete the data folder to start over).`,
        );
      }
      continue;
    }
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
        "migration",
        `Migration ${name} failed${lineOf(sql, position)}: ${oneLine(error)}`,
      );
    }
    applied.push(name);
    log(`Applied migration ${name}`);
  }
  return applied;
}

/** Opens (or creates) the database and brings it up to date. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<OpenedDatabase> {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir();
  let db: PGlite;
  try {
    db = await PGlite.create(
      options.dataDir === undefined ? undefined : pgDataDir(options.dataDir),
    );
  } catch (error) {
    const where = options.dataDir === undefined ? "in memory" : `in ${options.dataDir}`;
    throw new LocalBackendError(
      "database",
      `Could not open the local database ${where}: ${oneLine(error)}`,
    );
  }
  try {
    const applied = await applyMigrations(db, migrationsDir, options.log);
    return { db, applied };
  } catch (error) {
    await db.close().catch(() => {});
    if (error instanceof LocalBackendError) throw error;
    throw new LocalBackendError(
      "database",
      `Could not prepare the local database: ${oneLine(error)}`,
    );
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

/** Whether staff were told of a request (public.contact_notifications), as `npm run requests` shows it. */
export interface StaffNotification {
  /** pending, delivered, skipped, held (for the page's proof), digest (for the next one), digested. */
  status: string;
  notified_at: string | null;
  attempts: number;
  last_error: string | null;
  /** While pending or held: the next attempt, or the end of the wait. */
  next_attempt_at: string | null;
  digest_sent_at: string | null;
  /** Why it is not e-mailed one by one (meeting_requests_overview.held_for). */
  held_for: string[] | null;
  /** The digest that lists it, and its place there (the likeliest real first). */
  digest: number | null;
  digest_rank: number | null;
}

/** How the screening judged a visitor's request (public.contact_screening). */
export interface RequestScreening {
  verdict: "page-verified" | "awaiting-proof" | "suspect";
  /** verified, pending, confirmed, invalid or missing. */
  proof: string;
  signals: string[];
  /** Page-proved requests: one-by-one, or over which budget. */
  budget: string | null;
}

/** A stored meeting request, as staff see it. */
export interface StoredRequest {
  id: number;
  created_at: string;
  name: string;
  email: string;
  organization: string;
  message: string;
  /** null: no delivery record (restored from the journal). */
  notification?: StaffNotification | null;
  /** null: not screened (staff's own insert, or restored from the journal). */
  screening?: RequestScreening | null;
}

const utc = (column: string): string =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * All meeting requests, newest first (as the superuser: reads bypass row-level security), or
 * with `lastInserted` only the row this connection inserted last (for the journal).
 */
export async function readRequests(
  db: Pick<PGlite, "query">,
  lastInserted = false,
): Promise<StoredRequest[]> {
  // Text columns travel as UTF-8 bytes, decoded with ignoreBOM: PGlite's own decoding would
  // drop a byte-order mark at the start of a value, and exports must be exact.
  const result = await db.query<
    Record<"name" | "email" | "organization" | "message", Uint8Array> &
      Pick<StoredRequest, "created_at" | "notification" | "screening"> & { id: string }
  >(
    `select c.id::text as id, ${utc("c.created_at")} as created_at,
            convert_to(c.name, 'UTF8') as name, convert_to(c.email, 'UTF8') as email,
            convert_to(c.organization, 'UTF8') as organization, convert_to(c.message, 'UTF8') as message,
            case when n.status is not null then json_build_object(
              'status', n.status, 'notified_at', ${utc("n.notified_at")}, 'attempts', n.attempts,
              'last_error', n.last_error,
              'next_attempt_at', case when n.status in ('pending', 'held') then ${utc("n.next_attempt_at")} end,
              'digest_sent_at', ${utc("d.sent_at")}, 'held_for', o.held_for, 'digest', o.digest,
              'digest_rank', o.digest_rank) end as notification,
            case when s.verdict is not null then json_build_object(
              'verdict', s.verdict, 'proof', s.proof, 'signals', s.signals, 'budget', s.budget)
            end as screening
       from public.contacts c
       left join public.contact_notifications n on n.contact_id = c.id
       left join public.contact_digests d on d.id = n.digest_id
       left join public.contact_screening s on s.contact_id = c.id
       left join public.meeting_requests_overview o on o.id = c.id
      ${lastInserted ? "where c.id = currval(pg_catalog.pg_get_serial_sequence('public.contacts', 'id'))" : ""}
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
