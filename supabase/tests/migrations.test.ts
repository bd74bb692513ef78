/**
 * How the local backend applies supabase/migrations (local-backend/database.ts): once each,
 * recorded, a failing file named with its line and rolled back; and a data folder made by an
 * older version, whose database records migrations this version does not have, carried over
 * into a new database with every request, including one its journal lacked.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { readRequests, startLocalBackend } from "../../local-backend";
import { applyMigrations, listMigrations, MadeByOlderVersion } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import { goodRow, rejection } from "../../local-backend/test-support/helpers";
import { insertAs, migrated, one } from "./harness";

jest.setTimeout(90_000);

const db = migrated();
const recorded = async () =>
  (
    await db().query<{ name: string }>(
      "select name from local_backend.applied_migrations order by name",
    )
  ).rows.map((row) => row.name);

test("each migration is applied once and recorded", async () => {
  expect(await applyMigrations(db(), defaultMigrationsDir())).toEqual([]);
  expect(await recorded()).toEqual(listMigrations(defaultMigrationsDir()));
});

test("a failing migration is reported with its file name, line and the SQL error, and rolled back", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  for (const name of listMigrations(defaultMigrationsDir()))
    fs.copyFileSync(path.join(defaultMigrationsDir(), name), path.join(dir, name));
  fs.writeFileSync(
    path.join(dir, "20990101000000_broken.sql"),
    "create table ok_table (id int);\nselect * from no_such_table;\n",
  );
  expect((await rejection(applyMigrations(db(), dir))).message).toBe(
    'Migration 20990101000000_broken.sql failed (line 2): relation "no_such_table" does not exist',
  );
  expect(await one(db(), "select to_regclass('public.ok_table') as value")).toBeNull();
});

/** Two of the ten files of the migrations before they were squashed into the baseline. */
const OLDER_MIGRATIONS = [
  "20250601000000_create_contacts.sql",
  "20261126130000_nothing_private_for_anon.sql",
];

const RECORD_OLDER = `with cleared as (delete from local_backend.applied_migrations)
  insert into local_backend.applied_migrations (name, checksum)
  select name, 'older' from unnest($1::text[]) name`;

test("a database made by an older version is not migrated in place: one sentence says what to run", async () => {
  await db().transaction(async (tx) => {
    await tx.query(RECORD_OLDER, [OLDER_MIGRATIONS]);
    const error = await rejection(applyMigrations(tx as never, defaultMigrationsDir()));
    expect(error).toBeInstanceOf(MadeByOlderVersion);
    expect(error.message).toBe(
      "The local database was made by an older version of this project (it records 2 migrations this version does not have, first 20250601000000_create_contacts.sql): carry its requests over with `npm run requests -- --restore`.",
    );
    await tx.rollback();
  });
});

test("npm start carries an older version's data folder over, with one line, losing no request", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "older-data-"));
  const older = await startLocalBackend({ port: 0, dataDir });
  const rows = [goodRow({ name: "Journaled" }), goodRow({ name: "Not journaled" })];
  try {
    // The first as the site sends it (journaled), the second as a crash before its journal line leaves it.
    const response = await fetch(`${older.url}/rest/v1/contacts`, {
      method: "POST",
      headers: { apikey: older.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify(rows[0]),
    });
    expect(response.status).toBe(201);
    await older.db.transaction((tx) => insertAs(tx, rows[1]!));
    await older.db.query(RECORD_OLDER, [OLDER_MIGRATIONS]);
  } finally {
    await older.close();
  }
  const lines: string[] = [];
  const backend = await startLocalBackend({ port: 0, dataDir, log: (line) => lines.push(line) });
  try {
    expect(lines.filter((line) => /older version/.test(line))).toEqual([
      expect.stringMatching(
        /^Carried 2 meeting requests over from a database made by an older version \(its files: .*pgdata\.damaged-.*\)\.$/,
      ),
    ]);
    const requests = await readRequests(backend.db);
    expect(requests.map(({ name, email }) => ({ name, email })).reverse()).toEqual(
      rows.map(({ name, email }) => ({ name, email })),
    );
    expect(
      (
        await backend.db.query<{ name: string }>(
          "select name from local_backend.applied_migrations order by name",
        )
      ).rows.map((row) => row.name),
    ).toEqual(listMigrations(defaultMigrationsDir()));
  } finally {
    await backend.close();
  }
});
