/** SQL fragments the advisor lints share: which schemas count, what the API exposes, naming. */

export type AdvisorLevel = "ERROR" | "WARN" | "INFO";

export interface LintQuery {
  /** Supabase's number for the lint ("0013"): findings are reported in this order. */
  code: string;
  lint: string;
  level: AdvisorLevel;
  /** Returns one column, `object`: what the finding is about. */
  sql: string;
  /** Returns one row with a boolean `applies`; when false the lint is skipped (its tables are missing). */
  appliesIf?: string;
}

/**
 * Schemas that belong to Postgres, the Supabase platform or its extensions, which the Advisor
 * does not lint, and the local backend's own bookkeeping schema.
 */
const PLATFORM_SCHEMAS = [
  "_timescaledb_cache",
  "_timescaledb_catalog",
  "_timescaledb_config",
  "_timescaledb_internal",
  "auth",
  "cron",
  "extensions",
  "graphql",
  "graphql_public",
  "information_schema",
  "net",
  "pgmq",
  "pgroonga",
  "pgsodium",
  "pgsodium_masks",
  "pgtle",
  "pgbouncer",
  "pg_catalog",
  "realtime",
  "repack",
  "storage",
  "supabase_functions",
  "supabase_migrations",
  "tiger",
  "topology",
  "vault",
  "local_backend",
] as const;

const sqlList = (names: readonly string[]): string =>
  `(${names.map((name) => `'${name}'`).join(", ")})`;

/** `column` names a schema the Advisor lints (optionally also linting some platform schemas). */
export function userSchema(column: string, alsoLinted: readonly string[] = []): string {
  return `${column} not in ${sqlList(PLATFORM_SCHEMAS.filter((name) => !alsoLinted.includes(name)))}`;
}

/** The schemas a new Supabase project exposes through its Data API (and our supabase/config.toml's [api] schemas). */
export const DEFAULT_EXPOSED_SCHEMAS = ["public", "graphql_public"] as const;

/**
 * The schemas PostgREST serves. On Supabase that is the setting pgrst.db_schemas; PGlite has no
 * PostgREST, so unless a test sets it we take the default. Used as `n.nspname in ${EXPOSED_SCHEMAS}`.
 */
export const EXPOSED_SCHEMAS = `(select pg_catalog.btrim(schema_name)
    from pg_catalog.unnest(pg_catalog.string_to_array(coalesce(
      nullif(pg_catalog.current_setting('pgrst.db_schemas', true), ''),
      '${DEFAULT_EXPOSED_SCHEMAS.join(", ")}'), ',')) schema_name)`;

/** The object (`oid`, a row of `catalog`) was not created by an extension. */
export function notFromExtension(oid: string, catalog: "pg_class" | "pg_proc"): string {
  return `not exists (select from pg_catalog.pg_depend dep
                       where dep.classid = 'pg_catalog.${catalog}'::pg_catalog.regclass
                         and dep.objid = ${oid} and dep.deptype = 'e')`;
}

/** The API roles may read the relation (table-level SELECT). */
export function readableByApiRoles(oid: string): string {
  return `(pg_catalog.has_table_privilege('anon', ${oid}, 'SELECT')
           or pg_catalog.has_table_privilege('authenticated', ${oid}, 'SELECT'))`;
}

/** The view (a pg_class row `c`) checks its callers' rights, not its owner's. */
export function securityInvoker(c: string): string {
  return `exists (select from pg_catalog.unnest(coalesce(${c}.reloptions, '{}')) reloption
                   where pg_catalog.lower(reloption) in ('security_invoker=true', 'security_invoker=on',
                                                      'security_invoker=1', 'security_invoker=yes'))`;
}

/** schema.relation of a pg_namespace row `n` and pg_class row `c`. */
export const relationName = (n = "n", c = "c"): string => `${n}.nspname || '.' || ${c}.relname`;

/** schema.function(identity arguments) of a pg_namespace row `n` and pg_proc row `p`. */
export const functionName = (n = "n", p = "p"): string =>
  `${n}.nspname || '.' || ${p}.proname || '(' || pg_catalog.pg_get_function_identity_arguments(${p}.oid) || ')'`;

/** The `using` and `with check` expressions of a pg_policy row `p`, as rows of `expressions(expr)`. */
export const POLICY_EXPRESSIONS = `cross join lateral (values
    (pg_catalog.pg_get_expr(p.polqual, p.polrelid)),
    (pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid))) expressions(expr)`;

/** pg_policy `p` on pg_class `c` in pg_namespace `n`. */
export const POLICIES = `pg_catalog.pg_policy p
    join pg_catalog.pg_class c on c.oid = p.polrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace`;

/** The policy applies to PUBLIC, anon or authenticated. */
export const POLICY_FOR_API_ROLES = `(0::oid = any (p.polroles)
    or exists (select from pg_catalog.pg_roles r
                where r.oid = any (p.polroles) and r.rolname in ('anon', 'authenticated')))`;

/** A policy expression with case and whitespace removed, to compare with TRIVIALLY_TRUE. */
export const normalised = (expression: string): string =>
  `pg_catalog.regexp_replace(pg_catalog.lower(coalesce(${expression}, '')), '\\s', '', 'g')`;

export const TRIVIALLY_TRUE = `('true', '(true)', '1=1', '(1=1)')`;
