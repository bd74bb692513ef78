/**
 * Opening a data folder safely: at every open the database is compared with the journal; a
 * journaled request missing, or a database PGlite cannot open, is refused with one sentence naming
 * the restore command. Also: reading a folder whether or not a backend holds it, and restoring.
 */
import fs from "node:fs";

import type { PGlite } from "@electric-sql/pglite";

import { acquireDataLock, liveHolder, WAIT_FOR_TURN_MS } from "./data-lock";
import { openDatabase, readRequests } from "./database";
import { LocalBackendError, oneLine } from "./errors";
import { journalEntry, JOURNAL_NAME, openJournal, readJournal, type Journal } from "./journal";
import { pgDataDir } from "./paths";

function damaged(dataDir: string, what: string): LocalBackendError {
  return new LocalBackendError(
    `The local database in ${dataDir} is damaged: ${what}. Restore it from the journal with ` +
      `\`npm run requests -- --restore --data-dir ${dataDir}\` (the damaged files are kept aside), ` +
      `or move the folder away to start with an empty database.`,
  );
}

const missing = (count: number, total: number, rows: number): string =>
  `${count} of the ${total} meeting requests in ${JOURNAL_NAME} are not in the database (it has ${rows} rows)`;

/** Refuses to create a database beside files that are not ours, or over journaled requests. */
function checkNewFolder(dataDir: string): void {
  const journaled = readJournal(dataDir).size;
  if (journaled > 0) throw damaged(dataDir, missing(journaled, journaled, 0));
  const ours = /^(server\.(lock|json.*)|pgdata|requests\.jsonl)$/;
  const others = fs.readdirSync(dataDir).filter((name) => !ours.test(name));
  if (others.length > 0) {
    throw new LocalBackendError(
      `The data folder ${dataDir} holds files that are not a local database (${others.slice(0, 3).join(", ")}): ` +
        `no new database is created there. Choose an empty or new folder with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
    );
  }
}

/** PGlite reports some damage only as "Aborted(). Build with -sASSERTIONS …": nothing a reader can act on. */
function openFailure(error: unknown): string {
  const text = oneLine(error);
  if (/Aborted\(\)|failed to initialize properly/.test(text))
    return "PostgreSQL stopped while reading its files, which are incomplete or damaged";
  return `PostgreSQL could not open it (${text})`;
}

/** Refuses a database that lost or changed journaled requests; journals the rows it lacks. */
async function reconcile(dataDir: string, db: PGlite, journal: Journal): Promise<number> {
  const journaled = readJournal(dataDir);
  const rows = await readRequests(db).catch((error: unknown) => {
    throw damaged(dataDir, `reading the meeting requests failed (${oneLine(error)})`);
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const lost = [...journaled.keys()].filter((id) => !byId.has(id));
  if (lost.length > 0) throw damaged(dataDir, missing(lost.length, journaled.size, rows.length));
  const changed = [...journaled.values()].filter(
    (entry) =>
      JSON.stringify(journalEntry(entry)) !== JSON.stringify(journalEntry(byId.get(entry.id)!)),
  );
  if (changed.length > 0) {
    const first = changed[0]!.id;
    throw damaged(
      dataDir,
      `${changed.length} meeting requests differ from ${JOURNAL_NAME} (first: #${first})`,
    );
  }
  const unjournaled = rows.filter((row) => !journaled.has(row.id)).sort((a, b) => a.id - b.id);
  journal.append(unjournaled);
  return unjournaled.length;
}

/** Opens the folder's database (creating it only in an empty folder), checked against the journal. Hold the lock first. */
export async function openDataFolder(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<{ db: PGlite; journal: Journal }> {
  const isNew = !fs.existsSync(pgDataDir(dataDir));
  if (isNew) checkNewFolder(dataDir);
  let db: PGlite;
  let madeByOlderVersion: boolean | undefined;
  try {
    ({ db, madeByOlderVersion } = await openDatabase({ dataDir, log }));
  } catch (error) {
    if (isNew || (error instanceof LocalBackendError && error.kind === "migration")) throw error;
    throw damaged(dataDir, openFailure(error));
  }
  const journal = openJournal(dataDir);
  try {
    const added = await reconcile(dataDir, db, journal);
    if (added > 0) log(`Added ${added} stored request${added === 1 ? "" : "s"} to ${JOURNAL_NAME}`);
    if (madeByOlderVersion) {
      // Every request is in the journal now: rebuild the database from it.
      journal.close();
      await db.close();
      const { restored, keptAt } = await restoreDataFolder(dataDir);
      log(
        `Carried ${restored} meeting requests over from a database made by an older version (its files: ${keptAt}).`,
      );
      return openDataFolder(dataDir, log);
    }
    return { db, journal };
  } catch (error) {
    journal.close();
    await db.close().catch(() => {});
    throw error;
  }
}

/**
 * Reads a folder through the backend that holds it (`viaBackend`), else from the files under the
 * lock (not read-only: crash recovery and the journal check run as at a start). Waits up to 30 s
 * for a starting backend or another command. undefined when the folder has no database yet.
 */
export async function readDataFolder<T>(
  dataDir: string,
  read: {
    viaBackend(url: string, serviceKey: string): Promise<T>;
    fromFiles(db: PGlite): Promise<T>;
  },
): Promise<T | undefined> {
  if (!fs.existsSync(pgDataDir(dataDir)) && readJournal(dataDir).size === 0) return undefined;
  for (const deadline = Date.now() + WAIT_FOR_TURN_MS; ;) {
    const holder = liveHolder(dataDir);
    if (holder?.url && holder.serviceKey) return read.viaBackend(holder.url, holder.serviceKey);
    if (holder?.kind !== "server") {
      const lock = await acquireDataLock(dataDir, "reader").catch((error: unknown) => {
        if (error instanceof LocalBackendError && error.kind === "data-dir-in-use")
          return undefined;
        throw error;
      });
      if (lock) {
        try {
          const { db, journal } = await openDataFolder(dataDir);
          try {
            return await read.fromFiles(db);
          } finally {
            journal.close();
            await db.close();
          }
        } finally {
          await lock.release();
        }
      }
    }
    if (Date.now() > deadline) {
      throw new LocalBackendError(
        `The local backend (pid ${holder?.pid}) has been starting for ${WAIT_FOR_TURN_MS / 1000} s; try again when it is ready.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Rebuilds the database from the journal: `pgdata/` is renamed `pgdata.damaged-<time>`, and every
 * journaled request is inserted into a new one with its id and time, triggers off (staff are not
 * notified again). Hold the lock first.
 */
export async function restoreDataFolder(
  dataDir: string,
): Promise<{ restored: number; keptAt?: string }> {
  const requests = [...readJournal(dataDir).values()].sort((a, b) => a.id - b.id);
  const pgdata = pgDataDir(dataDir);
  let keptAt: string | undefined;
  if (fs.existsSync(pgdata)) {
    keptAt = `${pgdata}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    fs.renameSync(pgdata, keptAt);
  }
  const { db } = await openDatabase({ dataDir });
  try {
    await db.transaction(async (tx) => {
      await tx.query("set local session_replication_role = replica");
      for (const { id, created_at, name, email, organization, message } of requests) {
        await tx.query(
          `insert into public.contacts (id, created_at, name, email, organization, message)
           overriding system value values ($1, $2, $3, $4, $5, $6)`,
          [id, created_at, name, email, organization, message],
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
