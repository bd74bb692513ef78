/**
 * Our own queries for the security checks of Supabase's Security Advisor (the "splinter"
 * lints), written from their documented conditions, for a test to run on the migrated
 * database (docs/database.md). Test and tooling support only: the server does not use it.
 */
import type { PGlite } from "@electric-sql/pglite";

export type AdvisorLevel = "ERROR" | "WARN" | "INFO";

export interface AdvisorFinding {
  lint: string;
  level: AdvisorLevel;
  /** schema.object, with the policy or function arguments where that names it. */
  object: string;
}

/** Schemas that are Postgres' or the platform's own, never linted. */
const SYSTEM_SCHEMAS_SQL = `n.nspname not in ('pg_catalog', 'information_schema', 'local_backend', 'auth', 'storage',
  'realtime', 'extensions', 'graphql', 'graphql_public', 'net', 'cron', 'vault', 'supabase_functions',
  'supabase_migrations', 'pgsodium', 'pgbouncer') and n.nspname not like 'pg\\_%'`;

/** What a policy expression looks like with case, spaces and outer parentheses removed. */
const TRIVIALLY_TRUE = `('true', '(true)', '1=1', '(1=1)')`;
const normalised = (column: string): string =>
  `pg_catalog.regexp_replace(pg_catalog.lower(coalesce(${column}, '')), '\\s', '', 'g')`;

interface LintQuery {
  lint: string;
  level: AdvisorLevel;
  sql: string;
}

export const ADVISOR_LINTS: readonly LintQuery[] = [
  {
    // A table the API exposes (schema public) that anyone with a grant can read or write unchecked.
    lint: "rls_disabled_in_public",
    level: "ERROR",
    sql: `select n.nspname || '.' || c.relname as object
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
  },
  {
    lint: "policy_exists_rls_disabled",
    level: "ERROR",
    sql: `select distinct n.nspname || '.' || c.relname as object
            from pg_catalog.pg_policy p
            join pg_catalog.pg_class c on c.oid = p.polrelid
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where ${SYSTEM_SCHEMAS_SQL} and not c.relrowsecurity`,
  },
  {
    lint: "rls_enabled_no_policy",
    level: "INFO",
    sql: `select n.nspname || '.' || c.relname as object
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where ${SYSTEM_SCHEMAS_SQL} and c.relkind in ('r', 'p') and c.relrowsecurity
             and not exists (select from pg_catalog.pg_policy p where p.polrelid = c.oid)`,
  },
  {
    // A permissive write policy for the API roles (or PUBLIC) whose condition says nothing.
    lint: "rls_policy_always_true",
    level: "WARN",
    sql: `select n.nspname || '.' || c.relname || ' policy ' || pg_catalog.quote_ident(p.polname) as object
            from pg_catalog.pg_policy p
            join pg_catalog.pg_class c on c.oid = p.polrelid
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            cross join lateral (select
                ${normalised("pg_catalog.pg_get_expr(p.polqual, p.polrelid)")} as using_expr,
                ${normalised("pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid)")} as check_expr) e
           where ${SYSTEM_SCHEMAS_SQL} and c.relkind = 'r' and c.relrowsecurity and p.polpermissive
             and p.polcmd in ('a', 'w', 'd', '*')
             and (0::oid = any (p.polroles)
                  or exists (select from pg_catalog.pg_roles r
                              where r.oid = any (p.polroles) and r.rolname in ('anon', 'authenticated')))
             and (e.check_expr in ${TRIVIALLY_TRUE}
                  or (p.polcmd in ('w', 'd', '*') and (p.polqual is null or e.using_expr in ${TRIVIALLY_TRUE}))
                  or (p.polcmd = 'a' and p.polwithcheck is null))`,
  },
  {
    // A view runs with its owner's rights unless it says security_invoker.
    lint: "security_definer_view",
    level: "ERROR",
    sql: `select n.nspname || '.' || c.relname as object
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind = 'v'
             and not exists (select from pg_catalog.unnest(coalesce(c.reloptions, '{}')) o
                              where pg_catalog.lower(o) in ('security_invoker=true', 'security_invoker=on',
                                                            'security_invoker=1', 'security_invoker=yes'))`,
  },
  {
    lint: "function_search_path_mutable",
    level: "WARN",
    sql: `select n.nspname || '.' || p.proname || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')' as object
            from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
           where ${SYSTEM_SCHEMAS_SQL}
             and not exists (select from pg_catalog.unnest(coalesce(p.proconfig, '{}')) s where s like 'search_path=%')`,
  },
  ...(["anon", "authenticated"] as const).map((role) => ({
    lint: `${role}_security_definer_function_executable`,
    level: "WARN" as const,
    sql: `select n.nspname || '.' || p.proname || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')' as object
            from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
           where ${SYSTEM_SCHEMAS_SQL} and p.prosecdef
             and pg_catalog.has_function_privilege('${role}', p.oid, 'EXECUTE')`,
  })),
];

/** Every finding of every lint, in lint order then object order. */
export async function runAdvisorLints(db: Pick<PGlite, "query">): Promise<AdvisorFinding[]> {
  const findings: AdvisorFinding[] = [];
  for (const { lint, level, sql } of ADVISOR_LINTS) {
    const result = await db.query<{ object: string }>(`${sql} order by 1`);
    for (const row of result.rows) findings.push({ lint, level, object: row.object });
  }
  return findings;
}
