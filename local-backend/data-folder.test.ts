/**
 * Damage to a data folder is never silent: a missing or damaged database is refused at start
 * and by `npm run requests` with one sentence naming the folder and what to do, no new database
 * is created over it, and the journal (written before each 201) restores every stored request.
 */
import fs from "node:fs";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { restoreDataFolder } from "./data-folder";
import { LocalBackendError } from "./errors";
import { journalEntry, journalFile, readJournal } from "./journal";
import { pgDataDir } from "./paths";
import { loadRequests } from "./requests";
import { startLocalBackend } from "./server";
import { goodRow, rejection } from "./test-helpers";
import { tempDataDir } from "./test-processes";

jest.setTimeout(60_000);

async function insert(url: string, count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const row = goodRow();
    const response = await fetch(`${url}/rest/v1/contacts`, {
      method: "POST",
      headers: { apikey: LOCAL_ANON_KEY, "Content-Type": "application/json" },
      body: JSON.stringify(row),
    });
    expect(response.status).toBe(201);
    emails.push(row.email);
  }
  return emails;
}

interface Folder {
  dataDir: string;
  emails: string[];
  /** The contacts table's file. */
  tableFile: string;
}

let template: Folder;

/** One data folder with 4 requests, closed cleanly; each test damages its own copy. */
beforeAll(async () => {
  const dataDir = tempDataDir("damage-");
  const backend = await startLocalBackend({ port: 0, dataDir });
  const emails = await insert(backend.url, 4);
  // Each 201 came after the row was in the journal, on disk.
  expect([...readJournal(dataDir).values()].map((request) => request.email).sort()).toEqual(
    [...emails].sort(),
  );
  const relative = (
    await backend.db.query<{ path: string }>(
      "select pg_relation_filepath('public.contacts') as path",
    )
  ).rows[0]!.path;
  await backend.close();
  template = { dataDir, emails, tableFile: path.join(pgDataDir(dataDir), relative) };
});

function copyOfFolder(): Folder {
  const dataDir = tempDataDir("damage-copy-");
  fs.cpSync(template.dataDir, dataDir, { recursive: true });
  return {
    dataDir,
    emails: template.emails,
    tableFile: path.join(dataDir, path.relative(template.dataDir, template.tableFile)),
  };
}

/** Both ways in (the server and `npm run requests`) refuse the folder, in a plain sentence (not PGlite's Aborted()). */
async function expectRefused(dataDir: string, pattern: RegExp): Promise<void> {
  for (const attempt of [
    () => startLocalBackend({ port: 0, dataDir }),
    () => loadRequests(dataDir),
  ]) {
    const error = await rejection(attempt());
    expect(error).toBeInstanceOf(LocalBackendError);
    expect(error.message).toMatch(pattern);
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain("npm run requests -- --restore");
    expect(error.message).not.toMatch(/Aborted\(\)|ASSERTIONS|PGlite/);
  }
}

test("a table file truncated to 0 bytes is refused, then restored from the journal with ids kept", async () => {
  const { dataDir, emails, tableFile } = copyOfFolder();
  fs.truncateSync(tableFile, 0);
  await expectRefused(
    dataDir,
    /^The local database in .* is damaged: 4 of the 4 meeting requests in requests\.jsonl are not in the database \(it has 0 rows\)\./,
  );

  const before = [...readJournal(dataDir).values()];
  const { restored, keptAt } = await restoreDataFolder(dataDir);
  expect(restored).toBe(4);
  expect(fs.existsSync(keptAt!)).toBe(true);
  const backend = await startLocalBackend({ port: 0, dataDir });
  try {
    const more = await insert(backend.url, 1);
    const stored = (await loadRequests(dataDir)).requests;
    expect(stored.map((request) => request.email).sort()).toEqual([...emails, ...more].sort());
    expect(stored.filter((request) => request.email !== more[0]).map(journalEntry)).toEqual(
      expect.arrayContaining(before),
    );
    // Restored requests are not notified again: no delivery record for them, a pending one for the new request.
    expect(
      stored.filter((request) => request.email !== more[0]).map((request) => request.notification),
    ).toEqual([null, null, null, null]);
    expect(Math.max(...stored.map((request) => request.id))).toBe(5);
  } finally {
    await backend.close();
  }
});

test("a table file truncated to half is refused too", async () => {
  const { dataDir, tableFile } = copyOfFolder();
  fs.truncateSync(tableFile, Math.floor(fs.statSync(tableFile).size / 2));
  await expectRefused(dataDir, /^The local database in .* is damaged: /);
});

test("deleted database files (pgdata/ or PG_VERSION) are refused instead of starting a new, empty database", async () => {
  const { dataDir } = copyOfFolder();
  fs.rmSync(path.join(pgDataDir(dataDir), "PG_VERSION"));
  await expectRefused(dataDir, /is damaged: pgdata\/PG_VERSION is missing\./);
  fs.rmSync(pgDataDir(dataDir), { recursive: true });
  await expectRefused(
    dataDir,
    /is damaged: its database files \(pgdata\/\) are missing, but requests\.jsonl holds 4 meeting requests\./,
  );
  expect(fs.existsSync(pgDataDir(dataDir))).toBe(false);
});

test("a damaged control file gives a plain sentence, not PGlite's Aborted()", async () => {
  const { dataDir } = copyOfFolder();
  const control = path.join(pgDataDir(dataDir), "global", "pg_control");
  fs.writeFileSync(control, Buffer.alloc(fs.statSync(control).size, 0x5a));
  await expectRefused(
    dataDir,
    /^The local database in .* is damaged: PostgreSQL (could not open it \(|stopped while reading its files)/,
  );
});

function deleteWal(dataDir: string, what: "log files" | "folder"): void {
  const wal = path.join(pgDataDir(dataDir), "pg_wal");
  if (what === "folder") fs.rmSync(wal, { recursive: true });
  else
    for (const name of fs.readdirSync(wal).filter((file) => /^[0-9A-F]{24}$/.test(file)))
      fs.rmSync(path.join(wal, name));
}

test.each(["log files", "folder"] as const)(
  "a deleted write-ahead log (%s) is named in plain words, not PGlite's Aborted()",
  async (what) => {
    const { dataDir } = copyOfFolder();
    deleteWal(dataDir, what);
    await expectRefused(
      dataDir,
      /is damaged: its write-ahead log \(pgdata\/pg_wal\) (is missing|has no log files left)/,
    );
  },
);

test("a write-ahead log deleted after a crash (files copied while the backend ran) is named in plain words too", async () => {
  const dataDir = tempDataDir("damage-crash-");
  const backend = await startLocalBackend({ port: 0, dataDir });
  try {
    await insert(backend.url, 2);
    const crashed = tempDataDir("damage-crash-copy-");
    fs.cpSync(dataDir, crashed, { recursive: true });
    fs.rmSync(path.join(crashed, "server.lock"), { force: true });
    deleteWal(crashed, "log files");
    await expectRefused(
      crashed,
      /is damaged: its write-ahead log \(pgdata\/pg_wal\) has no log files left/,
    );
  } finally {
    await backend.close();
  }
});

test("a folder holding other files gets no new database", async () => {
  const dataDir = tempDataDir("not-a-database-");
  fs.writeFileSync(path.join(dataDir, "notes.txt"), "mine");
  const error = await rejection(startLocalBackend({ port: 0, dataDir }));
  expect(error.message).toBe(
    `The data folder ${dataDir} holds files that are not a local database (notes.txt): no new database is created there. Choose an empty or new folder with --data-dir / LOCAL_BACKEND_DATA_DIR.`,
  );
  expect(fs.existsSync(pgDataDir(dataDir))).toBe(false);
});

test("a row committed but missing from the journal (crash between the two) is added at the next start", async () => {
  const { dataDir, emails } = copyOfFolder();
  const lines = fs.readFileSync(journalFile(dataDir), "utf8").split("\n").filter(Boolean);
  fs.writeFileSync(
    journalFile(dataDir),
    `${lines.slice(0, 3).join("\n")}\n${lines[3]!.slice(0, 10)}`,
  ); // torn last line
  const backend = await startLocalBackend({ port: 0, dataDir });
  await backend.close();
  expect([...readJournal(dataDir).values()].map((request) => request.email).sort()).toEqual(
    [...emails].sort(),
  );
});
