/**
 * The lints about what the API roles can reach and see (exposure-lints.ts), each on a
 * deliberately bad fixture and on a fixed one, applied to a database with Supabase's roles and
 * default grants and rolled back. Every list is every finding of every lint.
 */
import { AUTH_STAND_INS, finding, graphqlVisible, lintCases } from "./fixture-database";
import type { AdvisorFinding } from "./lints";

const definerExecutable = (object: string): AdvisorFinding[] => [
  finding("anon_security_definer_function_executable", "WARN", object),
  finding("authenticated_security_definer_function_executable", "WARN", object),
];

const STUB_SERVER =
  "create foreign data wrapper stub_fdw; create server stub_server foreign data wrapper stub_fdw;";

const QUEUE = `create schema pgmq; grant usage on schema pgmq to anon;
  create table pgmq.q_jobs (msg_id bigint primary key, message jsonb); grant select on pgmq.q_jobs to anon;`;

const DEFINER_FUNCTION =
  "returns int language sql security definer set search_path = '' as 'select 1'";

lintCases(
  [
    [
      "auth_users_exposed: a view with its owner's rights",
      `${AUTH_STAND_INS} create view public.user_emails as select id, email from auth.users`,
      [
        finding("auth_users_exposed", "ERROR", "public.user_emails"),
        finding("security_definer_view", "ERROR", "public.user_emails"),
        ...graphqlVisible("public.user_emails"),
      ],
    ],
    [
      "auth_users_exposed: security_invoker, but auth.users has no row-level security",
      `${AUTH_STAND_INS} create view public.user_emails with (security_invoker = on) as select id, email from auth.users`,
      [
        finding("auth_users_exposed", "ERROR", "public.user_emails"),
        ...graphqlVisible("public.user_emails"),
      ],
    ],
    [
      "auth_users_exposed: a materialized view",
      `${AUTH_STAND_INS} create materialized view public.user_emails as select id, email from auth.users`,
      [
        finding("auth_users_exposed", "ERROR", "public.user_emails"),
        finding("materialized_view_in_api", "WARN", "public.user_emails"),
        ...graphqlVisible("public.user_emails"),
      ],
    ],
    [
      "security_definer_view",
      "create view public.v as select 1 as x",
      [finding("security_definer_view", "ERROR", "public.v"), ...graphqlVisible("public.v")],
    ],
    [
      "materialized_view_in_api",
      "create materialized view public.mv as select 1 as x",
      [finding("materialized_view_in_api", "WARN", "public.mv"), ...graphqlVisible("public.mv")],
    ],
    [
      "foreign_table_in_api",
      `${STUB_SERVER} create foreign table public.ft (x int) server stub_server`,
      [finding("foreign_table_in_api", "WARN", "public.ft"), ...graphqlVisible("public.ft")],
    ],
    [
      "insecure_queue_exposed_in_api: schema pgmq_public exists",
      `${QUEUE} create schema pgmq_public`,
      [finding("insecure_queue_exposed_in_api", "ERROR", "pgmq.q_jobs")],
    ],
    [
      "insecure_queue_exposed_in_api: pgmq_public in pgrst.db_schemas",
      `${QUEUE} set local pgrst.db_schemas = 'public, graphql_public, pgmq_public'`,
      [finding("insecure_queue_exposed_in_api", "ERROR", "pgmq.q_jobs")],
    ],
    [
      "pg_graphql_anon/authenticated_table_exposed: one column is enough",
      `create schema app; grant usage on schema app to anon, authenticated;
       create table app.t (id int primary key, note text);
       grant select (id) on app.t to anon; grant select on app.t to authenticated`,
      graphqlVisible("app.t"),
    ],
    [
      "anon/authenticated_security_definer_function_executable",
      `create function public.f() ${DEFINER_FUNCTION}`,
      definerExecutable("public.f()"),
    ],
    [
      "anon/authenticated_security_definer_function_executable: in any schema (the Advisor: exposed ones only)",
      `create schema app; grant usage on schema app to anon, authenticated; create function app.f(n int) ${DEFINER_FUNCTION}`,
      definerExecutable("app.f(n integer)"),
    ],
  ],
  [
    [
      "auth_users_exposed",
      `${AUTH_STAND_INS} alter table auth.users enable row level security;
       create view public.user_emails with (security_invoker = on) as select id, email from auth.users`,
      graphqlVisible("public.user_emails"),
    ],
    [
      "security_definer_view",
      "create view public.v with (security_invoker = on) as select 1 as x",
      graphqlVisible("public.v"),
    ],
    [
      "security_definer_view: a schema not exposed",
      "create schema app; create view app.v as select 1 as x; grant select on app.v to anon",
      [finding("pg_graphql_anon_table_exposed", "WARN", "app.v")],
    ],
    [
      "materialized_view_in_api",
      "create materialized view public.mv as select 1 as x; revoke select on public.mv from anon, authenticated",
      [],
    ],
    [
      "foreign_table_in_api",
      `${STUB_SERVER} create foreign table public.ft (x int) server stub_server; revoke select on public.ft from anon, authenticated`,
      [],
    ],
    [
      "insecure_queue_exposed_in_api: row-level security on",
      `${QUEUE} create schema pgmq_public; alter table pgmq.q_jobs enable row level security`,
      [],
    ],
    ["insecure_queue_exposed_in_api: queues not exposed", QUEUE, []],
    [
      "pg_graphql_anon/authenticated_table_exposed: anon may only insert",
      `create schema app; grant usage on schema app to anon, authenticated;
       create table app.t (id int primary key, note text); grant insert (note) on app.t to anon`,
      [],
    ],
    [
      "anon/authenticated_security_definer_function_executable",
      `create function public.f() ${DEFINER_FUNCTION}; revoke all on function public.f() from public, anon, authenticated`,
      [],
    ],
  ],
);
