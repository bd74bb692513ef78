/**
 * The Security Advisor where Supabase's CLI cannot see (docs/database.md): our own lints
 * (advisor-lints.ts) on bad and fixed fixtures, then on the migrated database; lint 0012 on
 * supabase/config.toml; lint 0014 read from the migrations, as no server here has pg_net.
 */
import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { parse } from "smol-toml";

import { listMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import { openedForTests } from "../../local-backend/test-support/helpers";
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

  /** Every right anon or authenticated has on a table, column, sequence or function of ours. */
  const API_ROLE_RIGHTS = `
    with objects as (
      select c.oid, n.nspname || '.' || c.relname as name, c.relkind
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'private') and c.relkind in ('r', 'v', 'm', 'f', 'p', 'S'))
    select r || ' ' || x.what as value
      from unnest(array['anon', 'authenticated']) r, lateral (
        select p || ' ' || o.name as what
          from objects o, unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) p
         where o.relkind <> 'S' and has_table_privilege(r, o.oid, p)
        union all
        select p || ' ' || o.name || '(' || a.attname || ')'
          from objects o join pg_attribute a on a.attrelid = o.oid and a.attnum > 0 and not a.attisdropped,
               unnest(array['SELECT', 'INSERT', 'UPDATE', 'REFERENCES']) p
         where o.relkind <> 'S' and not has_table_privilege(r, o.oid, p) and has_column_privilege(r, o.oid, a.attnum, p)
        union all
        select p || ' ' || o.name
          from objects o, unnest(array['USAGE', 'SELECT', 'UPDATE']) p
         where o.relkind = 'S' and has_sequence_privilege(r, o.oid, p)
        union all
        select 'EXECUTE ' || n.nspname || '.' || f.proname || '(' || pg_get_function_identity_arguments(f.oid) || ')'
          from pg_proc f join pg_namespace n on n.oid = f.pronamespace
         where n.nspname in ('public', 'private') and has_function_privilege(r, f.oid, 'EXECUTE')) x
     order by 1`;

  test("anon may insert a request's four columns, run the three RPCs and the desks behind them, and nothing else; authenticated nothing", async () => {
    const rights = await db().query<{ value: string }>(API_ROLE_RIGHTS);
    expect(rights.rows.map((row) => row.value)).toEqual([
      "anon EXECUTE private.contacts_visitor_request_allowed(name text, email text, organization text, message text)",
      "anon EXECUTE public.confirm_form_proof(ticket text, proof text)",
      "anon EXECUTE public.form_challenge()",
      "anon EXECUTE public.record_site_event(text)",
      "anon INSERT private.form_challenge_desk",
      "anon INSERT private.form_proof_confirmations",
      "anon INSERT private.site_event_desk",
      "anon INSERT public.contacts(email)",
      "anon INSERT public.contacts(message)",
      "anon INSERT public.contacts(name)",
      "anon INSERT public.contacts(organization)",
    ]);
  });

  test("our lints find nothing: anon may read no column anywhere, nor run a SECURITY DEFINER function", async () => {
    expect(await runOurLints(bare())).toEqual([]);
    expect(await runOurLints(db())).toEqual([]);
  });
});

describe("supabase/config.toml", () => {
  const config = parse(
    fs.readFileSync(path.join(defaultMigrationsDir(), "..", "config.toml"), "utf8"),
  ) as { auth?: Record<string, unknown>; api: Record<string, unknown> };

  test("0012 auth_allow_anonymous_sign_ins: anonymous sign-ins stay off (absent, the CLI's default is off)", () => {
    expect(config.auth?.enable_anonymous_sign_ins ?? false).toBe(false);
  });

  test("the API exposes Supabase's default schemas, which the lints' setup assumes", () => {
    expect(config.api.schemas).toEqual(["public", "graphql_public"]);
  });
});

/** Each `create extension` statement of `sql` that names no schema (comments left out). */
const extensionsWithoutSchema = (sql: string) =>
  [...sql.replace(/\/\*[\s\S]*?\*\/|--[^\n]*/g, " ").matchAll(/\bcreate\s+extension\b[^;]*/gi)]
    .map(([statement]) => statement.replace(/\s+/g, " ").trim())
    .filter((statement) => !/\bschema\s+\S/i.test(statement));

test("0014 extension_in_public: every create extension in supabase/migrations names its schema", () => {
  const dir = defaultMigrationsDir();
  const sql = listMigrations(dir).map((name) => fs.readFileSync(path.join(dir, name), "utf8"));
  expect(extensionsWithoutSchema(sql.join("\n"))).toEqual([]);
  // The check reads statements as PostgreSQL would.
  const sample = `-- create extension in_a_comment;
    create extension if not exists pg_net;
    /* create extension
       in_a_block_comment; */ create extension pgcrypto
      with schema extensions;
    CREATE EXTENSION "uuid-ossp" SCHEMA extensions;
    create extension hstore version '1.8';`;
  expect(extensionsWithoutSchema(sample)).toEqual([
    "create extension if not exists pg_net",
    "create extension hstore version '1.8'",
  ]);
});
