/**
 * Our own queries for the lints of Supabase's Security Advisor that its CLI does not ship
 * (`supabase db advisors` runs the other 23: hosted-postgres.test.ts), written from their
 * documented conditions, under their names and at their level (WARN). Test support only.
 *
 * - pg_graphql shows a table, view, materialized view or foreign table to every role that may
 *   read one of its columns, whatever the RLS: run as if pg_graphql were installed, as it is on
 *   most projects.
 * - A SECURITY DEFINER function the role may execute: the Advisor looks at the exposed schemas
 *   only; we look at every schema but the platform's, since which schemas are exposed is a
 *   setting no migration records, and `private` is one toggle away from being served.
 * - A public storage bucket with a broad read policy on storage.objects lets anyone list it.
 */
import type { PGlite } from "@electric-sql/pglite";

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

export const OUR_LINTS: { lint: string; sql: string; appliesIf?: string }[] = [
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
export async function runOurLints(db: Pick<PGlite, "query">): Promise<string[]> {
  const findings: string[] = [];
  for (const { lint, sql, appliesIf } of OUR_LINTS) {
    if (appliesIf && !(await db.query<{ value: boolean }>(appliesIf)).rows[0]!.value) continue;
    const result = await db.query<{ object: string }>(`${sql} order by 1`);
    findings.push(...result.rows.map((row) => `${lint}: ${row.object}`));
  }
  return findings;
}
