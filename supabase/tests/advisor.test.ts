/**
 * The Security Advisor where Supabase's CLI cannot see (docs/database.md): `supabase db advisors`
 * runs its 23 lints in hosted-postgres.test.ts; here are our own queries for the ones it does not
 * ship, written from their documented conditions, under their names and at their level (WARN),
 * tried on bad and fixed fixtures, then on the migrated database. Lint 0012 is read from
 * supabase/config.toml, and 0014 from the migrations, as no server here has pg_net.
 *
 * - pg_graphql shows a table, view, materialized view or foreign table to every role that may
 *   read one of its columns, whatever the RLS: run as if pg_graphql were installed, as it is on
 *   most projects.
 * - A SECURITY DEFINER function the role may execute: the Advisor looks at the exposed schemas
 *   only; we look at every schema but the platform's, since which schemas are exposed is a
 *   setting no migration records, and `private` is one toggle away from being served.
 * - A public storage bucket with a broad read policy on storage.objects lets anyone list it.
 */
import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { parse } from "smol-toml";

import { listMigrations } from "../../local-backend/database";
import { defaultMigrationsDir } from "../../local-backend/paths";
import { openedForTests } from "../../local-backend/test-support/helpers";
import { migrated, SUPABASE_ROLES_SQL } from "./harness";

jest.setTimeout(90_000);

/** Schemas of PostgreSQL, the Supabase platform and its extensions, which the Advisor does not lint. */
const PLATFORM_SCHEMAS = `('_timescaledb_cache', '_timescaledb_catalog', '_timescaledb_config',
  '_timescaledb_internal', 'auth', 'cron', 'extensions', 'graphql', 'graphql_public',
  'information_schema', 'net', 'pgmq', 'pgroonga', 'pgsodium', 'pgsodium_masks', 'pgtle',
  'pgbouncer', 'pg_catalog', 'realtime', 'repack', 'storage', 'supabase_functions',
  'supabase_migrations', 'tiger', 'topology', 'vault', 'local_backend')`;

const graphqlTableExposed = (role: string) => `
  select n.nspname || '.' || c.relname as object
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('r', 'v', 'm', 'f') and n.nspname not in ${PLATFORM_SCHEMAS}
     and exists (select from pg_catalog.pg_attribute a
                  where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                    and pg_catalog.has_column_privilege('${role}', c.oid, a.attnum, 'SELECT'))`;

const definerFunctionExecutable = (role: string) => `
  select n.nspname || '.' || p.proname || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')' as object
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
   where n.nspname not in ${PLATFORM_SCHEMAS} and p.prosecdef
     and pg_catalog.has_function_privilege('${role}', p.oid, 'EXECUTE')`;

/** A permissive read policy for PUBLIC, anon or authenticated that is always true, or just "this bucket". */
const PUBLIC_BUCKET_ALLOWS_LISTING = `
  select 'storage bucket ' || b.id || ' policies '
         || pg_catalog.string_agg(pg_catalog.quote_ident(p.polname), ', ' order by p.polname) as object
    from storage.buckets b
    join pg_catalog.pg_policy p on p.polrelid = 'storage.objects'::pg_catalog.regclass
   cross join lateral (select pg_catalog.pg_get_expr(p.polqual, p.polrelid) as expr) e
   where b.public and p.polpermissive and p.polcmd in ('r', '*')
     and (0::oid = any (p.polroles)
          or exists (select from pg_catalog.pg_roles r
                      where r.oid = any (p.polroles) and r.rolname in ('anon', 'authenticated')))
     and (p.polqual is null
          or pg_catalog.regexp_replace(pg_catalog.lower(e.expr), '\\s', '', 'g') in ('true', '(true)', '1=1', '(1=1)')
          or (pg_catalog.regexp_match(e.expr,
                '^[\\s(]*bucket_id\\s*=\\s*(''(?:[^'']|'''')*'')(?:\\s*::\\s*[\\w.]+)?[\\s)]*$', 'i'))[1]
             = '''' || pg_catalog.replace(b.id, '''', '''''') || '''')
   group by b.id`;

const OUR_LINTS: { lint: string; sql: string; appliesIf?: string }[] = [
  { lint: "pg_graphql_anon_table_exposed", sql: graphqlTableExposed("anon") },
  { lint: "pg_graphql_authenticated_table_exposed", sql: graphqlTableExposed("authenticated") },
  { lint: "anon_security_definer_function_executable", sql: definerFunctionExecutable("anon") },
  {
    lint: "authenticated_security_definer_function_executable",
    sql: definerFunctionExecutable("authenticated"),
  },
  {
    lint: "public_bucket_allows_listing",
    sql: PUBLIC_BUCKET_ALLOWS_LISTING,
    appliesIf: "select pg_catalog.to_regclass('storage.objects') is not null as value",
  },
];

/** Every finding of our lints, as "lint: object", in lint order then object order (all WARN). */
async function runOurLints(db: Pick<PGlite, "query">): Promise<string[]> {
  const findings: string[] = [];
  for (const { lint, sql, appliesIf } of OUR_LINTS) {
    if (appliesIf && !(await db.query<{ value: boolean }>(appliesIf)).rows[0]!.value) continue;
    const result = await db.query<{ object: string }>(`${sql} order by 1`);
    findings.push(...result.rows.map((row) => `${lint}: ${row.object}`));
  }
  return findings;
}

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
