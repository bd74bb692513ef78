/** The Advisor's performance lints: keys, indexes, policies evaluated per row, bloat. */
import {
  notFromExtension,
  POLICIES,
  POLICY_EXPRESSIONS,
  relationName,
  userSchema,
  type LintQuery,
} from "./sql";

const TABLES = `pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace`;

/** A valid index's key columns (not its INCLUDE columns), as an int2[] that starts at 1. */
const INDEX_KEY_COLUMNS = `(pg_catalog.string_to_array(i.indkey::text, ' ')::int2[])[1:i.indnkeyatts]`;

/** Calls a policy should make once per statement, in a sub-select, not once per row. */
const PER_STATEMENT_CALLS = [
  "auth.uid()",
  "auth.jwt()",
  "auth.role()",
  "auth.email()",
  "current_setting(",
] as const;

/** Each policy command as the statements it covers. */
const POLICY_ACTIONS = `cross join lateral pg_catalog.unnest(case p.polcmd
      when 'r' then array['SELECT'] when 'a' then array['INSERT'] when 'w' then array['UPDATE']
      when 'd' then array['DELETE'] else array['SELECT', 'INSERT', 'UPDATE', 'DELETE'] end) actions(action)`;

export const PERFORMANCE_LINTS: readonly LintQuery[] = [
  {
    // A foreign key whose columns do not lead some valid index of its table, in the same order.
    code: "0001",
    lint: "unindexed_foreign_keys",
    level: "INFO",
    sql: `select ${relationName()} || ' foreign key ' || pg_catalog.quote_ident(k.conname) as object
            from pg_catalog.pg_constraint k join ${TABLES} on c.oid = k.conrelid
           where k.contype = 'f' and ${userSchema("n.nspname")} and ${notFromExtension("c.oid", "pg_class")}
             and not exists (select from pg_catalog.pg_index i
                              where i.indrelid = k.conrelid and i.indisvalid
                                and (${INDEX_KEY_COLUMNS})[1:pg_catalog.cardinality(k.conkey)] = k.conkey)`,
  },
  {
    // The realtime schema is linted here: its policies on realtime.messages are the project's own.
    code: "0003",
    lint: "auth_rls_initplan",
    level: "WARN",
    sql: `select distinct ${relationName()} || ' policy ' || pg_catalog.quote_ident(p.polname) as object
            from ${POLICIES}
            ${POLICY_EXPRESSIONS}
            cross join lateral (values ${PER_STATEMENT_CALLS.map((call) => `('${call}')`).join(", ")}) calls(call)
           where c.relrowsecurity and ${userSchema("n.nspname", ["realtime"])}
             and pg_catalog.strpos(expressions.expr, calls.call) > 0
             and pg_catalog.strpos(pg_catalog.lower(expressions.expr), 'select ' || calls.call) = 0`,
  },
  {
    code: "0004",
    lint: "no_primary_key",
    level: "INFO",
    sql: `select ${relationName()} as object
            from ${TABLES}
           where c.relkind = 'r' and ${userSchema("n.nspname")} and ${notFromExtension("c.oid", "pg_class")}
             and not exists (select from pg_catalog.pg_index i where i.indrelid = c.oid and i.indisprimary)`,
  },
  {
    // From the statistics since they were last reset: every index on a fresh database.
    code: "0005",
    lint: "unused_index",
    level: "INFO",
    sql: `select s.schemaname || '.' || s.relname || ' index ' || pg_catalog.quote_ident(s.indexrelname) as object
            from pg_catalog.pg_stat_user_indexes s join pg_catalog.pg_index i on i.indexrelid = s.indexrelid
           where s.idx_scan = 0 and not i.indisunique and not i.indisprimary
             and ${userSchema("s.schemaname")} and ${notFromExtension("s.relid", "pg_class")}`,
  },
  {
    // Permissive policies are OR-ed: every one of them runs for every row. Roles that bypass
    // RLS, and Postgres' and Supabase's administrative roles, are not counted.
    code: "0006",
    lint: "multiple_permissive_policies",
    level: "WARN",
    sql: `select ${relationName()} || ' ' || actions.action || ' for ' || r.rolname || ': '
                 || pg_catalog.string_agg(pg_catalog.quote_ident(p.polname), ', ' order by p.polname) as object
            from ${POLICIES}
            join pg_catalog.pg_roles r on r.oid = any (p.polroles) or 0::oid = any (p.polroles)
            ${POLICY_ACTIONS}
           where c.relkind = 'r' and p.polpermissive and ${userSchema("n.nspname")}
             and ${notFromExtension("c.oid", "pg_class")}
             and r.rolname not like 'pg\\_%' and r.rolname not like 'supabase%admin' and not r.rolbypassrls
           group by n.nspname, c.relname, r.rolname, actions.action
          having pg_catalog.count(*) > 1`,
  },
  {
    // Indexes of one table that are the same index under different names.
    code: "0009",
    lint: "duplicate_index",
    level: "WARN",
    sql: `select ${relationName()} || ' indexes '
                 || pg_catalog.string_agg(pg_catalog.quote_ident(ic.relname), ', ' order by ic.relname) as object
            from pg_catalog.pg_index i
            join pg_catalog.pg_class ic on ic.oid = i.indexrelid
            join ${TABLES} on c.oid = i.indrelid
           where c.relkind in ('r', 'm') and ${userSchema("n.nspname")} and ${notFromExtension("c.oid", "pg_class")}
           group by n.nspname, c.relname, ic.relam, i.indkey::text, i.indnkeyatts, i.indclass::text,
                    i.indcollation::text, i.indoption::text, i.indisunique, i.indnullsnotdistinct,
                    coalesce(pg_catalog.pg_get_expr(i.indexprs, i.indrelid), ''),
                    coalesce(pg_catalog.pg_get_expr(i.indpred, i.indrelid), '')
          having pg_catalog.count(*) > 1`,
  },
  {
    // The pages a table would need for its rows (estimated from the planner's statistics: the
    // tuple header, the columns' average widths, the null bitmap and the line pointer, each
    // aligned to 4 bytes) against the pages it has: over 70 times as many, and more than 20 MiB
    // wasted. Only tables ANALYZE has seen are estimated.
    code: "0020",
    lint: "table_bloat",
    level: "INFO",
    sql: `with widths as (
            select s.schemaname, s.tablename,
                   pg_catalog.sum((1 - s.null_frac) * s.avg_width)::numeric as data_bytes,
                   pg_catalog.max(s.null_frac)::numeric as largest_null_fraction,
                   (pg_catalog.count(*) filter (where s.null_frac <> 0))::int as nullable_columns
              from pg_catalog.pg_stats s
             group by s.schemaname, s.tablename
          ), sizes as (
            select n.nspname, c.relname, c.relpages::numeric as pages,
                   pg_catalog.current_setting('block_size')::numeric as block_bytes,
                   pg_catalog.ceil(c.reltuples::numeric
                     * (pg_catalog.ceil((24 + w.data_bytes) / 4) * 4
                        + w.largest_null_fraction * pg_catalog.ceil((24 + w.nullable_columns / 8) / 4.0) * 4
                        + 4)
                     / (pg_catalog.current_setting('block_size')::numeric - 20)) as needed_pages
              from widths w
              join pg_catalog.pg_namespace n on n.nspname = w.schemaname
              join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = w.tablename
             where c.relkind = 'r' and n.nspname <> 'information_schema'
               and c.relam = (select am.oid from pg_catalog.pg_am am where am.amname = 'heap')
          )
          select nspname || '.' || relname as object
            from sizes
           where pg_catalog.round(case when needed_pages = 0 then 0 else pages / needed_pages end, 1) > 70
             and (case when pages < needed_pages then 0 else block_bytes * (pages - needed_pages) end) > 20 * 1024 * 1024`,
  },
];
