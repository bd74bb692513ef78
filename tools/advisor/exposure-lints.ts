/** The Advisor's lints about what the API roles (anon, authenticated) can reach and see. */
import {
  EXPOSED_SCHEMAS,
  functionName,
  notFromExtension,
  readableByApiRoles,
  relationName,
  securityInvoker,
  userSchema,
  type AdvisorLevel,
  type LintQuery,
} from "./sql";

const RELATIONS = `pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace`;

/** A relation of `relkind` in an exposed schema that anon or authenticated may read. */
function exposedRelation(
  code: string,
  lint: string,
  level: AdvisorLevel,
  relkind: "v" | "m" | "f",
  extraCondition = "true",
): LintQuery {
  return {
    code,
    lint,
    level,
    sql: `select ${relationName()} as object
            from ${RELATIONS}
           where c.relkind = '${relkind}' and ${readableByApiRoles("c.oid")}
             and n.nspname in ${EXPOSED_SCHEMAS} and ${userSchema("n.nspname")}
             and ${notFromExtension("c.oid", "pg_class")} and ${extraCondition}`,
  };
}

/**
 * pg_graphql shows a relation's name, columns and mutations to every role that may read one of
 * its columns, whatever the RLS. PGlite cannot load pg_graphql, and Supabase projects have it
 * by default, so these run as if it were installed (the Advisor skips them when it is not).
 */
function graphqlVisible(code: string, role: "anon" | "authenticated"): LintQuery {
  return {
    code,
    lint: `pg_graphql_${role}_table_exposed`,
    level: "WARN",
    sql: `select ${relationName()} as object
            from ${RELATIONS}
           where c.relkind in ('r', 'v', 'm', 'f') and ${userSchema("n.nspname")}
             and exists (select from pg_catalog.pg_attribute a
                          where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                            and pg_catalog.has_column_privilege('${role}', c.oid, a.attnum, 'SELECT'))`,
  };
}

/**
 * A SECURITY DEFINER function the role may execute. The Advisor looks only at the exposed
 * schemas (those /rest/v1/rpc serves); we look at every schema but the platform's, as before:
 * which schemas are exposed is a dashboard setting no migration records, and our `private`
 * schema, where anon has USAGE, is one toggle away from being served.
 */
function definerFunctionExecutable(code: string, role: "anon" | "authenticated"): LintQuery {
  return {
    code,
    lint: `${role}_security_definer_function_executable`,
    level: "WARN",
    sql: `select ${functionName()} as object
            from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
           where ${userSchema("n.nspname")} and p.prosecdef
             and pg_catalog.has_function_privilege('${role}', p.oid, 'EXECUTE')`,
  };
}

export const EXPOSURE_LINTS: readonly LintQuery[] = [
  {
    // A view (or materialized view) over auth.users that the API roles may read and that does
    // not apply auth.users' row-level security to them.
    code: "0002",
    lint: "auth_users_exposed",
    level: "ERROR",
    sql: `select distinct ${relationName()} as object
            from pg_catalog.pg_depend d
            join pg_catalog.pg_rewrite rule on rule.oid = d.objid
            join ${RELATIONS} on c.oid = rule.ev_class
            join pg_catalog.pg_class users on users.oid = d.refobjid
           where d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass
             and d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass and d.deptype = 'n'
             and d.refobjid = pg_catalog.to_regclass('auth.users')
             and n.nspname in ${EXPOSED_SCHEMAS} and ${readableByApiRoles("c.oid")}
             and (c.relkind = 'm'
                  or (c.relkind = 'v' and (not ${securityInvoker("c")} or not users.relrowsecurity)))`,
  },
  // A view runs with its owner's rights unless it says security_invoker.
  exposedRelation("0010", "security_definer_view", "ERROR", "v", `not ${securityInvoker("c")}`),
  // Materialized and foreign tables have no row-level security at all.
  exposedRelation("0016", "materialized_view_in_api", "WARN", "m"),
  exposedRelation("0017", "foreign_table_in_api", "WARN", "f"),
  {
    // pgmq's queue tables (pgmq.q_<queue>) once Queues are exposed through schema pgmq_public.
    // Also when that schema merely exists: whether it is exposed is a setting PGlite lacks.
    code: "0019",
    lint: "insecure_queue_exposed_in_api",
    level: "ERROR",
    sql: `select ${relationName()} as object
            from ${RELATIONS}
           where n.nspname = 'pgmq' and c.relname ~ '^q.' and c.relkind in ('r', 'p')
             and not c.relrowsecurity and ${readableByApiRoles("c.oid")}
             and ('pgmq_public' in ${EXPOSED_SCHEMAS} or pg_catalog.to_regnamespace('pgmq_public') is not null)`,
  },
  graphqlVisible("0026", "anon"),
  graphqlVisible("0027", "authenticated"),
  definerFunctionExecutable("0028", "anon"),
  definerFunctionExecutable("0029", "authenticated"),
];
