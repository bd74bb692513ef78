/**
 * Opening a data folder safely. PGlite creates a new, empty database wherever it finds no
 * PG_VERSION file, and reads a truncated table file as an empty table, so neither a deleted
 * nor a damaged database would be noticed. Here:
 * - a new database is created only in a folder that holds nothing else (its lock aside);
 * - a folder whose database files are missing or damaged is refused with one sentence that
 *   names the folder and what to do;
 * - the database is compared with the journal (journal.ts): a request in the journal but not
 *   in the database means damage (refused); a row in the database but not in the journal (a
 *   crash between commit and journal write, or a folder from before the journal) is added to it.
 * `restoreDataFolder` rebuilds the database from the journal (`npm run requests -- --restore`).
 */
import fs from "node:fs";
import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";

import { openDatabase, readRequests, type StoredRequest } from "./database";
import { LocalBackendError, oneLine } from "./errors";
import {
  journalEntry,
  journalFile,
  JOURNAL_NAME,
  openJournal,
  readJournal,
  type Journal,
} from "./journal";
import { pgDataDir } from "./paths";

export interface OpenedDataFolder {
  db: PGlite;
  journal: Journal;
}

const RESTORE_HINT = (dataDir: string): string =>
  `Restore it from the journal with \`npm run requests -- --restore --data-dir ${dataDir}\` (the damaged files are kept aside), ` +
  `or move the folder away to start with an empty database.`;

function damaged(dataDir: string, what: string): LocalBackendError {
  return new LocalBackendError(
    "database-damaged",
    `The local database in ${dataDir} is damaged: ${what}. ${RESTORE_HINT(dataDir)}`,
  );
}

/** Files of ours that may sit in a folder without making it "used". */
function isLockFile(name: string): boolean {
  return name === "server.lock" || /^server\.lock\..*\.(tmp|stale)$/.test(name);
}

/** A write-ahead log segment file name: timeline, log and segment, 8 hex digits each. */
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

/**
 * PGlite's WebAssembly build reports some failures to read its files only as "Aborted(). Build with
 * -sASSERTIONS for more info." or "PGlite failed to initialize properly": nothing a reader can act on.
 */
function plainOpenFailure(error: unknown): string {
  const text = oneLine(error instanceof LocalBackendError ? error.message : error);
  if (/Aborted\(\)|failed to initialize properly/.test(text))
    return "PostgreSQL stopped while reading its files, which are incomplete or damaged";
  return `PostgreSQL could not open it (${text})`;
}

/** Refuses a folder whose database files are missing or incomplete; true when a new database may be created. */
function checkFiles(dataDir: string): boolean {
  const pgdata = pgDataDir(dataDir);
  const inPgdata = fs.existsSync(pgdata) ? fs.readdirSync(pgdata) : [];
  if (inPgdata.length > 0) {
    if (!inPgdata.includes("PG_VERSION")) throw damaged(dataDir, "pgdata/PG_VERSION is missing");
    if (!fs.existsSync(path.join(pgdata, "global", "pg_control")))
      throw damaged(dataDir, "pgdata/global/pg_control is missing");
    const wal = path.join(pgdata, "pg_wal");
    if (!fs.existsSync(wal))
      throw damaged(dataDir, "its write-ahead log (pgdata/pg_wal) is missing");
    if (!fs.readdirSync(wal).some((name) => WAL_SEGMENT.test(name))) {
      throw damaged(
        dataDir,
        "its write-ahead log (pgdata/pg_wal) has no log files left, so recent changes cannot be read back",
      );
    }
    return false;
  }
  const journaled = readJournal(dataDir).size;
  if (journaled > 0) {
    throw damaged(
      dataDir,
      `its database files (pgdata/) are missing, but ${JOURNAL_NAME} holds ${journaled} meeting request${journaled === 1 ? "" : "s"}`,
    );
  }
  const others = fs
    .readdirSync(dataDir)
    .filter((name) => !isLockFile(name) && name !== "pgdata" && name !== JOURNAL_NAME);
  if (others.length > 0) {
    throw new LocalBackendError(
      "data-dir",
      `The data folder ${dataDir} holds files that are not a local database (${others.slice(0, 3).join(", ")}): ` +
        `no new database is created there. Choose an empty or new folder with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
    );
  }
  return true;
}

/** Compares database and journal; returns the rows the journal lacks (already appended). */
function reconcile(dataDir: string, rows: readonly StoredRequest[], journal: Journal): number {
  const journaled = readJournal(dataDir);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = [...journaled.keys()].filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw damaged(
      dataDir,
      `${missing.length} of the ${journaled.size} meeting requests in ${JOURNAL_NAME} are not in the database (it has ${rows.length} rows)`,
    );
  }
  const changed = [...journaled.values()].filter(
    (entry) =>
      JSON.stringify(journalEntry(entry)) !== JSON.stringify(journalEntry(byId.get(entry.id)!)),
  );
  if (changed.length > 0)
    throw damaged(
      dataDir,
      `${changed.length} meeting requests differ from ${JOURNAL_NAME} (first: #${changed[0]!.id})`,
    );
  const unjournaled = rows.filter((row) => !journaled.has(row.id)).sort((a, b) => a.id - b.id);
  journal.append(unjournaled);
  return unjournaled.length;
}

/** Opens the folder's database (creating it only in an empty folder), checked against the journal. Hold the lock first. */
export async function openDataFolder(
  dataDir: string,
  migrationsDir: string | undefined,
  log: (line: string) => void = () => {},
): Promise<OpenedDataFolder> {
  const isNew = checkFiles(dataDir);
  let db: PGlite;
  let madeByOlderVersion: boolean | undefined;
  try {
    ({ db, madeByOlderVersion } = await openDatabase({ dataDir, migrationsDir, log }));
  } catch (error) {
    if (error instanceof LocalBackendError && error.kind === "migration") throw error;
    throw isNew ? error : damaged(dataDir, plainOpenFailure(error));
  }
  const journal = openJournal(dataDir);
  try {
    let rows: StoredRequest[];
    try {
      rows = await readRequests(db);
    } catch (error) {
      throw damaged(dataDir, `reading the meeting requests failed (${oneLine(error)})`);
    }
    const added = reconcile(dataDir, rows, journal);
    if (added > 0)
      log(`Added ${added} stored request${added === 1 ? "" : "s"} to ${journalFile(dataDir)}`);
    if (madeByOlderVersion) {
      // Every request is in the journal now: rebuild the database from it (database.ts).
      journal.close();
      await db.close();
      const { restored, keptAt } = await restoreDataFolder(dataDir, migrationsDir);
      log(
        `Carried ${restored} meeting requests over from a database made by an older version (its files: ${keptAt}).`,
      );
      return openDataFolder(dataDir, migrationsDir, log);
    }
    return { db, journal };
  } catch (error) {
    journal.close();
    await db.close().catch(() => {});
    throw error;
  }
}

/**
 * Rebuilds the database from the journal: the old `pgdata/` is renamed `pgdata.damaged-<time>`,
 * a new one is created with the migrations, and every journaled request is inserted with its
 * id and time, without triggers (staff are not notified again; the delivery state of restored
 * requests is unknown). Hold the lock first. Returns how many requests were restored and where the old files went.
 */
export async function restoreDataFolder(
  dataDir: string,
  migrationsDir?: string,
): Promise<{ restored: number; keptAt?: string }> {
  const requests = [...readJournal(dataDir).values()].sort((a, b) => a.id - b.id);
  const pgdata = pgDataDir(dataDir);
  let keptAt: string | undefined;
  if (fs.existsSync(pgdata)) {
    keptAt = `${pgdata}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    fs.renameSync(pgdata, keptAt);
  }
  const { db } = await openDatabase({ dataDir, migrationsDir });
  try {
    await db.transaction(async (tx) => {
      // Triggers off (replica mode): restored requests must not queue staff notifications again.
      await tx.query("set local session_replication_role = replica");
      for (const request of requests) {
        await tx.query(
          `insert into public.contacts (id, created_at, name, email, organization, message)
           overriding system value values ($1, $2, $3, $4, $5, $6)`,
          [
            request.id,
            request.created_at,
            request.name,
            request.email,
            request.organization,
            request.message,
          ],
        );
      }
      await tx.query(
        "select setval(pg_catalog.pg_get_serial_sequence('public.contacts', 'id'), greatest((select max(id) from public.contacts), 1), (select count(*) > 0 from public.contacts))",
      );
    });
  } finally {
    await db.close();
  }
  return { restored: requests.length, keptAt };
}
