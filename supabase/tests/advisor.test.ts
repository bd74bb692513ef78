/**
 * The Security Advisor where Supabase's CLI cannot see (docs/database.md): our own lints
 * (advisor-lints.ts) each catching a deliberately bad fixture and passing a fixed one on a new
 * Supabase-like database, then finding nothing on the migrated one; lint 0012, an Auth setting,
 * on supabase/config.toml; and lint 0014 where no server here has pg_net or pg_cron: every
 * `create extension` in the migrations names its schema.
 */
import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";

import { listMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import { openedForTests } from "../../local-backend/test-helpers";
import { runOurLints } from "./advisor-lints";
import { migrated, SUPABASE_ROLES_SQL } from "./harness";

jest.setTimeout(90_000);

const bare = openedForTests(async () => {
  const db = await PGlite.create();
  await db.exec(SUPABASE_ROLES_SQL);
  return db;
});

/** Our findings with `fixture` applied, then rolled back. */
async function lint(fixture: string): Promise<string[]> {
  let findings: string[] = [];
  await bare().transaction(async (tx) => {
    await tx.exec(fixture);
    findings = await runOurLints(tx);
    await tx.rollback();
  });
  return findings;
}

const graphqlVisible = (object: string) => [
  `pg_graphql_anon_table_exposed: ${object}`,
  `pg_graphql_authenticated_table_exposed: ${object}`,
];
const definerExecutable = (object: string) => [
  `anon_security_definer_function_executable: ${object}`,
  `authenticated_security_definer_function_executable: ${object}`,
];
const DEFINER = "returns int language sql security definer set search_path = '' as 'select 1'";
const APP_SCHEMA = "create schema app; grant usage on schema app to anon, authenticated;";
const STORAGE = `create schema storage;
  create table storage.buckets (id text primary key, name text not null, public boolean not null default false);
  create table storage.objects (id uuid primary key, bucket_id text references storage.buckets (id), name text);
  alter table storage.objects enable row level security;`;

test.each([
  [
    "pg_graphql_*_table_exposed: one readable column is enough, in any schema",
    `${APP_SCHEMA} create table app.t (id int primary key, note text);
     grant select (id) on app.t to anon; grant select on app.t to authenticated`,
    graphqlVisible("app.t"),
  ],
  [
    "pg_graphql_*_table_exposed: a view with Supabase's default grants",
    "create view public.v with (security_invoker = on) as select 1 as x",
    graphqlVisible("public.v"),
  ],
  [
    "*_security_definer_function_executable",
    `create function public.f() ${DEFINER}`,
    definerExecutable("public.f()"),
  ],
  [
    "*_security_definer_function_executable: in any schema (the Advisor: exposed ones only)",
    `${APP_SCHEMA} create function app.f(n int) ${DEFINER}`,
    definerExecutable("app.f(n integer)"),
  ],
  [
    "public_bucket_allows_listing: just this bucket",
    `${STORAGE} insert into storage.buckets values ('avatars', 'Avatars', true);
     create policy "Avatars are listable" on storage.objects for select to anon using (bucket_id = 'avatars')`,
    ['public_bucket_allows_listing: storage bucket avatars policies "Avatars are listable"'],
  ],
  [
    "public_bucket_allows_listing: always true, a bucket id with quotes and regex characters",
    `${STORAGE} insert into storage.buckets values ('o''brien.[1]|x', 'Odd', true), ('other', 'Other', true);
     create policy odd on storage.objects for all using (( bucket_id = 'o''brien.[1]|x' ));
     create policy everything on storage.objects for select to authenticated using (true)`,
    [
      "public_bucket_allows_listing: storage bucket o'brien.[1]|x policies everything, odd",
      "public_bucket_allows_listing: storage bucket other policies everything",
    ],
  ],
])("%s: caught", async (_label, fixture, expected) => {
  expect(await lint(fixture)).toEqual(expected);
});

test.each([
  [
    "pg_graphql_*_table_exposed: anon may only insert",
    `${APP_SCHEMA} create table app.t (id int primary key, note text); grant insert (note) on app.t to anon`,
  ],
  [
    "pg_graphql_*_table_exposed: Supabase's default grants taken back",
    "create table public.t (id int primary key); revoke all on public.t from anon, authenticated",
  ],
  [
    "*_security_definer_function_executable",
    `create function public.f() ${DEFINER}; revoke all on function public.f() from public, anon, authenticated`,
  ],
  [
    "public_bucket_allows_listing",
    `${STORAGE}
     insert into storage.buckets values ('avatars', 'Avatars', true), ('private', 'Private', false);
     create policy narrower on storage.objects for select to anon using (bucket_id = 'avatars' and name like 'public/%');
     create policy restrictive on storage.objects as restrictive for select to anon using (bucket_id = 'avatars');
     create policy uploads on storage.objects for insert to authenticated with check (bucket_id = 'avatars');
     create policy private_bucket on storage.objects for select to anon using (bucket_id = 'private');
     create policy staff on storage.objects for select to service_role using (true)`,
  ],
])("%s: fixed, nothing found", async (_label, fixture) => {
  expect(await lint(fixture)).toEqual([]);
});

describe("the migrated database", () => {
  const db = migrated();

  test("our lints find nothing: anon may read no column anywhere, nor run a SECURITY DEFINER function", async () => {
    expect(await runOurLints(bare())).toEqual([]);
    expect(await runOurLints(db())).toEqual([]);
  });
});

/** The one-line `key = value` settings of a TOML [table] (values as written; enough for these). */
function tomlTable(text: string, table: string): Map<string, string> {
  const settings = new Map<string, string>();
  let current = "";
  for (const line of text.split("\n").map((raw) => raw.replace(/\s#.*$|^#.*$/, "").trim())) {
    const header = /^\[([^\]]+)\]$/.exec(line);
    const setting = /^([\w.-]+)\s*=\s*(.+)$/.exec(line);
    if (header) current = header[1]!.trim();
    else if (setting && current === table) settings.set(setting[1]!, setting[2]!.trim());
  }
  return settings;
}

/** Lint 0012's condition: absent, the CLI's default (false) applies. */
const allowsAnonymousSignIns = (toml: string) =>
  (tomlTable(toml, "auth").get("enable_anonymous_sign_ins") ?? "false") !== "false";

describe("supabase/config.toml", () => {
  const config = fs.readFileSync(path.join(defaultMigrationsDir(), "..", "config.toml"), "utf8");

  test.each([
    [
      "[auth]\n# enable_anonymous_sign_ins = false\nenable_anonymous_sign_ins = true # demo\n",
      true,
    ],
    ["[auth]\nenable_anonymous_sign_ins = false\n", false],
    ['[auth]\nsite_url = "http://localhost"\n', false],
    ["[other]\nenable_anonymous_sign_ins = true\n", false],
  ])("0012 reads %j as allowing anonymous sign-ins: %p", (toml, allows) => {
    expect(allowsAnonymousSignIns(toml)).toBe(allows);
  });

  test("0012 auth_allow_anonymous_sign_ins: anonymous sign-ins stay off", () => {
    expect(allowsAnonymousSignIns(config)).toBe(false);
  });

  test("the API exposes Supabase's default schemas, which the lints' setup assumes", () => {
    expect(tomlTable(config, "api").get("schemas")).toBe('["public", "graphql_public"]');
  });
});

/** "file:line: statement" for each `create extension` that names no schema (comments blanked out). */
function extensionsWithoutSchema(file: string, sql: string): string[] {
  const code = sql
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .replace(/--[^\n]*/g, "");
  return [...code.matchAll(/\bcreate\s+extension\s+(?:if\s+not\s+exists\s+)?"?[\w-]+"?[^;]*/gi)]
    .filter(([statement]) => !/\bschema\s+\S/i.test(statement))
    .map((match) => {
      const line = code.slice(0, match.index).split("\n").length;
      return `${file}:${line}: ${match[0].replace(/\s+/g, " ").trim()} (add: with schema extensions)`;
    });
}

test("0014 extension_in_public: the check reads statements as PostgreSQL would", () => {
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

test("0014 extension_in_public: every create extension in supabase/migrations names its schema", () => {
  const dir = defaultMigrationsDir();
  const problems = listMigrations(dir).flatMap((name) =>
    extensionsWithoutSchema(name, fs.readFileSync(path.join(dir, name), "utf8")),
  );
  expect(problems).toEqual([]);
});
