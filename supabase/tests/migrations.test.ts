/**
 * A failing migration under the local backend (local-backend/database.ts): named with its line
 * and rolled back. Applied once and recorded: local-backend/server.test.ts and data-folder.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";

import { applyMigrations } from "../../local-backend/database";
import { openedForTests, rejection } from "../../local-backend/test-support/helpers";
import { one } from "./harness";

const db = openedForTests(() => PGlite.create());
test("a failing migration is reported with its file name, line and the SQL error, and rolled back", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  fs.writeFileSync(
    path.join(dir, "20990101000000_broken.sql"),
    "create table ok_table (id int);\nselect * from no_such_table;\n",
  );
  expect((await rejection(applyMigrations(db(), dir))).message).toBe(
    'Migration 20990101000000_broken.sql failed (line 2): relation "no_such_table" does not exist',
  );
  expect(await one(db(), "select to_regclass('public.ok_table') as value")).toBeNull();
});
