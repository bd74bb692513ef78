/**
 * Lint 0014 (extension_in_public) where PGlite cannot see it: our migrations create pg_net and
 * pg_cron only where the server has them, which PGlite never does. An extension created without
 * a schema lands in the first schema of the search_path, public on Supabase, so every
 * `create extension` in supabase/migrations must name its schema, as Supabase's docs do
 * (pg_net in extensions, pg_cron in pg_catalog).
 */
import fs from "node:fs";
import path from "node:path";

import { listMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";

/** The SQL with its comments blanked out (line breaks kept, so line numbers still hold). */
function withoutComments(sql: string): string {
  return sql
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .replace(/--[^\n]*/g, "");
}

/** "file:line: statement" for each `create extension` that names no schema. */
function extensionsWithoutSchema(file: string, sql: string): string[] {
  const code = withoutComments(sql);
  const problems: string[] = [];
  for (const match of code.matchAll(
    /\bcreate\s+extension\s+(?:if\s+not\s+exists\s+)?"?([\w-]+)"?[^;]*/gi,
  )) {
    const [statement] = match;
    if (/\bschema\s+\S/i.test(statement)) continue;
    const line = code.slice(0, match.index).split("\n").length;
    problems.push(
      `${file}:${line}: ${statement.replace(/\s+/g, " ").trim()} (add: with schema extensions)`,
    );
  }
  return problems;
}

test("the check reads statements as Postgres would", () => {
  const sql = [
    "-- create extension in_a_comment;",
    "create extension if not exists pg_net;",
    "/* create extension",
    "   in_a_block_comment; */ create extension pgcrypto",
    "  with schema extensions;",
    'CREATE EXTENSION "uuid-ossp" SCHEMA extensions;',
    "create extension pg_cron;",
    "create extension hstore version '1.8';",
  ].join("\n");
  expect(extensionsWithoutSchema("sample.sql", sql)).toEqual([
    "sample.sql:2: create extension if not exists pg_net (add: with schema extensions)",
    "sample.sql:7: create extension pg_cron (add: with schema extensions)",
    "sample.sql:8: create extension hstore version '1.8' (add: with schema extensions)",
  ]);
});

test("every create extension in supabase/migrations names its schema", () => {
  const dir = defaultMigrationsDir();
  const problems = listMigrations(dir).flatMap((name) =>
    extensionsWithoutSchema(
      path.join("supabase", "migrations", name),
      fs.readFileSync(path.join(dir, name), "utf8"),
    ),
  );
  expect(problems).toEqual([]);
});
