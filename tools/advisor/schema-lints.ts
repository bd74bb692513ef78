/** The Advisor's lints about functions, extensions, column types and keys into Supabase Auth. */
import { functionName, notFromExtension, relationName, userSchema, type LintQuery } from "./sql";

/** reg* types whose stored oids pg_upgrade cannot carry over (regclass, regtype and regrole it can). */
const UNUPGRADABLE_REG_TYPES = [
  "regcollation",
  "regconfig",
  "regdictionary",
  "regnamespace",
  "regoper",
  "regoperator",
  "regproc",
  "regprocedure",
] as const;

export const SCHEMA_LINTS: readonly LintQuery[] = [
  {
    code: "0011",
    lint: "function_search_path_mutable",
    level: "WARN",
    sql: `select ${functionName()} as object
            from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
           where ${userSchema("n.nspname")} and ${notFromExtension("p.oid", "pg_proc")}
             and not exists (select from pg_catalog.unnest(coalesce(p.proconfig, '{}')) s where s like 'search_path=%')`,
  },
  {
    // Schema public is on the API and on everyone's search_path: an extension's objects belong
    // elsewhere (plpgsql is there from the start, by Postgres' choice).
    code: "0014",
    lint: "extension_in_public",
    level: "WARN",
    sql: `select e.extname as object
            from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
           where n.nspname = 'public' and e.extname <> 'plpgsql'`,
  },
  {
    // Any relation, in any schema but Postgres' own (and pgsodium's).
    code: "0018",
    lint: "unsupported_reg_types",
    level: "WARN",
    sql: `select ${relationName()} || ' column ' || pg_catalog.quote_ident(a.attname) || ' (' || t.typname || ')' as object
            from pg_catalog.pg_attribute a
            join pg_catalog.pg_class c on c.oid = a.attrelid
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            join pg_catalog.pg_type t on t.oid = a.atttypid
           where t.typnamespace = 'pg_catalog'::pg_catalog.regnamespace
             and t.typname in (${UNUPGRADABLE_REG_TYPES.map((name) => `'${name}'`).join(", ")})
             and n.nspname not in ('pg_catalog', 'information_schema', 'pgsodium')`,
  },
  {
    // Supabase Auth will drop its unique constraints other than primary keys; a foreign key
    // onto one would block its migrations.
    code: "0021",
    lint: "fkey_to_auth_unique",
    level: "ERROR",
    sql: `select ${relationName()} || ' foreign key ' || pg_catalog.quote_ident(k.conname) as object
            from pg_catalog.pg_constraint k
            join pg_catalog.pg_class c on c.oid = k.conrelid
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            join pg_catalog.pg_class target on target.oid = k.confrelid
            join pg_catalog.pg_index i on i.indexrelid = k.conindid
           where k.contype = 'f' and target.relnamespace = pg_catalog.to_regnamespace('auth')
             and i.indisunique and not i.indisprimary`,
  },
  {
    // An installed extension not at the version the server recommends (its default), among
    // the versions the server still has scripts for.
    code: "0022",
    lint: "extension_versions_outdated",
    level: "WARN",
    sql: `select e.name || ' ' || e.installed_version || ' (default ' || e.default_version || ')' as object
            from pg_catalog.pg_available_extensions e
           where e.installed_version is not null and e.default_version is not null
             and e.installed_version <> e.default_version
             and exists (select from pg_catalog.pg_available_extension_versions v
                          where v.name = e.name and v.version = e.installed_version and v.installed)`,
  },
];
