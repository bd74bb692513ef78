/**
 * Damage to a data folder is never silent: the backend and `npm run requests` refuse it with one
 * sentence naming the restore command, and the journal restores every stored request. A database
 * made by an older version is carried over with every request.
 */
import fs from "node:fs";
import path from "node:path";

import { applyMigrations, listMigrations, MadeByOlderVersion, readRequests } from "./database";
import { restoreDataFolder } from "./data-folder";
import { LocalBackendError } from "./errors";
import { journalEntry, journalFile, readJournal } from "./journal";
import { defaultMigrationsDir, pgDataDir } from "./paths";
import { loadRequests } from "./requests";
import { startLocalBackend } from "./server";
import { goodRow, postJson, rejection } from "./test-support/helpers";
import { tempDataDir } from "./test-support/processes";

jest.setTimeout(60_000);

async function insert(url: string, count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const row = goodRow();
    expect(await postJson(url, row)).toBe(201);
    emails.push(row.email);
  }
  return emails;
}

/** 4 requests, in a folder closed cleanly and as a crash left it: tests damage copies. */
let template: { dataDir: string; emails: string[]; tableFile: string; crashed: string };

beforeAll(async () => {
  const dataDir = tempDataDir("damage-");
  const backend = await startLocalBackend({ port: 0, dataDir });
  const emails = await insert(backend.url, 4);
  // Each 201 came after the row was in the journal, on disk.
  const journaled = [...readJournal(dataDir).values()].map((request) => request.email);
  expect(journaled.sort()).toEqual([...emails].sort());
  const table = await backend.db.query<{ path: string }>(
    "select pg_relation_filepath('public.contacts') as path",
  );
  const crashed = tempDataDir("damage-crash-");
  fs.cpSync(dataDir, crashed, { recursive: true });
  fs.rmSync(path.join(crashed, "server.lock"), { recursive: true, force: true });
  await backend.close();
  const tableFile = path.join(pgDataDir(dataDir), table.rows[0]!.path);
  template = { dataDir, emails, tableFile, crashed };
});

function copyOfFolder(): typeof template {
  const dataDir = tempDataDir("damage-copy-");
  fs.cpSync(template.dataDir, dataDir, { recursive: true });
  const tableFile = path.join(dataDir, path.relative(template.dataDir, template.tableFile));
  return { ...template, dataDir, tableFile };
}

/** Both ways in refuse the folder, in a plain sentence (not PGlite's Aborted()). */
async function expectRefused(dataDir: string, what: RegExp): Promise<void> {
  for (const open of [() => startLocalBackend({ port: 0, dataDir }), () => loadRequests(dataDir)]) {
    const error = await rejection(open());
    expect(error).toBeInstanceOf(LocalBackendError);
    expect(error.message).toMatch(
      new RegExp(`^The local database in ${dataDir} is damaged: ${what.source}`),
    );
    expect(error.message).toContain(`npm run requests -- --restore --data-dir ${dataDir}`);
    expect(error.message).not.toMatch(/Aborted\(\)|ASSERTIONS|PGlite/);
  }
}

const wal = (dataDir: string): string => path.join(pgDataDir(dataDir), "pg_wal");
const deleteWalFiles = (dataDir: string): void => {
  for (const name of fs.readdirSync(wal(dataDir)).filter((file) => /^[0-9A-F]{24}$/.test(file)))
    fs.rmSync(path.join(wal(dataDir), name));
};
const ZERO_ROWS =
  /4 of the 4 meeting requests in requests\.jsonl are not in the database \(it has 0 rows\)\./;
const UNREADABLE =
  /(PostgreSQL could not open it \(|PostgreSQL stopped while reading its files|\d of the 4 meeting)/;

test.each<[string, (folder: typeof template) => void, RegExp]>([
  [
    "the table file truncated to half",
    ({ tableFile }) => fs.truncateSync(tableFile, Math.floor(fs.statSync(tableFile).size / 2)),
    /./,
  ],
  [
    "pgdata/ deleted (no new, empty database is made)",
    ({ dataDir }) => fs.rmSync(pgDataDir(dataDir), { recursive: true }),
    ZERO_ROWS,
  ],
  [
    "the control file overwritten",
    ({ dataDir }) => {
      const control = path.join(pgDataDir(dataDir), "global", "pg_control");
      fs.writeFileSync(control, Buffer.alloc(fs.statSync(control).size, 0x5a));
    },
    UNREADABLE,
  ],
  ["the write-ahead log's files deleted", ({ dataDir }) => deleteWalFiles(dataDir), UNREADABLE],
  [
    "the write-ahead log's files deleted after a crash",
    ({ dataDir, crashed }) => {
      fs.rmSync(dataDir, { recursive: true });
      fs.cpSync(crashed, dataDir, { recursive: true });
      deleteWalFiles(dataDir);
    },
    /./,
  ],
])("%s is refused", async (_label, damage, what) => {
  const folder = copyOfFolder();
  damage(folder);
  await expectRefused(folder.dataDir, what);
  if (what === ZERO_ROWS) expect(fs.existsSync(pgDataDir(folder.dataDir))).toBe(false);
});

test("a table file truncated to 0 bytes is refused, then restored from the journal with ids kept", async () => {
  const { dataDir, emails, tableFile } = copyOfFolder();
  fs.truncateSync(tableFile, 0);
  await expectRefused(dataDir, ZERO_ROWS);

  const journaled = [...readJournal(dataDir).values()];
  const { restored, keptAt } = await restoreDataFolder(dataDir);
  expect(restored).toBe(4);
  expect(fs.existsSync(keptAt!)).toBe(true);
  const backend = await startLocalBackend({ port: 0, dataDir });
  try {
    const [added] = await insert(backend.url, 1);
    const stored = (await loadRequests(dataDir)).requests;
    expect(stored.map((request) => request.email).sort()).toEqual([...emails, added].sort());
    const before = stored.filter((request) => request.email !== added);
    expect(before.map(journalEntry)).toEqual(expect.arrayContaining(journaled));
    // Restored requests are not notified again: they have no delivery record.
    expect(before.map((request) => request.status?.notification)).toEqual([null, null, null, null]);
    expect(Math.max(...stored.map((request) => request.id))).toBe(5);
  } finally {
    await backend.close();
  }
});

test("a folder holding other files gets no new database", async () => {
  const dataDir = tempDataDir("not-a-database-");
  fs.writeFileSync(path.join(dataDir, "notes.txt"), "mine");
  expect((await rejection(startLocalBackend({ port: 0, dataDir }))).message).toBe(
    `The data folder ${dataDir} holds files that are not a local database (notes.txt): no new database is created there. Choose an empty or new folder with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
  );
  expect(fs.existsSync(pgDataDir(dataDir))).toBe(false);
});

/** A crash between a row's commit and its journal line: the last line torn. */
function tearLastJournalLine(dataDir: string): void {
  const lines = fs.readFileSync(journalFile(dataDir), "utf8").split("\n").filter(Boolean);
  fs.writeFileSync(
    journalFile(dataDir),
    `${lines.slice(0, -1).join("\n")}\n${lines.at(-1)!.slice(0, 10)}`,
  );
}

/** Two of the ten files of the migrations before they were squashed into the baseline. */
const OLDER_MIGRATIONS = [
  "20250601000000_create_contacts.sql",
  "20261126130000_nothing_private_for_anon.sql",
];

test("an older version's database (a migration this version lacks or has changed) is not migrated in place; npm start carries it over, losing no request, not even one missing from the journal", async () => {
  const { dataDir, emails } = copyOfFolder();
  const older = await startLocalBackend({ port: 0, dataDir });
  try {
    await older.db.query(
      `insert into local_backend.applied_migrations (name, checksum)
       select name, 'older' from unnest($1::text[]) name`,
      [OLDER_MIGRATIONS],
    );
    const [changed] = listMigrations(defaultMigrationsDir()).slice(-1);
    await older.db.query(
      "update local_backend.applied_migrations set checksum = 'edited' where name = $1",
      [changed],
    );
    const error = await rejection(applyMigrations(older.db, defaultMigrationsDir()));
    expect(error).toBeInstanceOf(MadeByOlderVersion);
    expect(error.message).toBe(
      "The local database was made by an older version of this project (it records 3 migrations this version does not have or has changed, first 20250601000000_create_contacts.sql): carry its requests over with `npm run requests -- --restore`.",
    );
  } finally {
    await older.close();
  }
  tearLastJournalLine(dataDir);
  const lines: string[] = [];
  const backend = await startLocalBackend({ port: 0, dataDir, log: (line) => lines.push(line) });
  try {
    expect(lines.filter((line) => /older version/.test(line))).toEqual([
      expect.stringMatching(
        /^Carried 4 meeting requests over from a database made by an older version \(its files: .*pgdata\.damaged-.*\)\.$/,
      ),
    ]);
    const requests = await readRequests(backend.db);
    expect(requests.map((request) => request.email).sort()).toEqual([...emails].sort());
    const applied = await backend.db.query<{ name: string }>(
      "select name from local_backend.applied_migrations order by name",
    );
    expect(applied.rows.map((row) => row.name)).toEqual(listMigrations(defaultMigrationsDir()));
  } finally {
    await backend.close();
  }
});
