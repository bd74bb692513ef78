/**
 * The row-level security lints (rls-lints.ts), each on a deliberately bad fixture and on a fixed
 * one, applied to a database with Supabase's roles and default grants and rolled back. Every
 * list is every finding of every lint: what else a fixture trips shows too.
 */
import {
  AUTH_STAND_INS,
  finding,
  graphqlVisible,
  lintCases,
  problems,
  quietTable,
} from "./fixture-database";

const STORAGE_STAND_INS = `
  create schema storage;
  create table storage.buckets (id text primary key, name text not null, public boolean not null default false);
  create table storage.objects (id uuid primary key, bucket_id text references storage.buckets (id), name text);
  alter table storage.objects enable row level security;
`;

const database = lintCases(
  [
    [
      "rls_disabled_in_public",
      "create table public.t (id int)",
      [
        finding("no_primary_key", "INFO", "public.t"),
        finding("rls_disabled_in_public", "ERROR", "public.t"),
        ...graphqlVisible("public.t"),
      ],
    ],
    [
      "rls_disabled_in_public: a partitioned table (pg_graphql shows only its partitions)",
      "create table public.events (day date primary key) partition by range (day)",
      [finding("rls_disabled_in_public", "ERROR", "public.events")],
    ],
    [
      "rls_disabled_in_public: a schema exposed by pgrst.db_schemas",
      `set local pgrst.db_schemas = 'api';
       create schema api; grant usage on schema api to anon;
       create table api.t (id int primary key); grant select on api.t to anon;
       create table public.u (id int primary key)`,
      [
        finding("rls_disabled_in_public", "ERROR", "api.t"),
        finding("pg_graphql_anon_table_exposed", "WARN", "api.t"),
        ...graphqlVisible("public.u"),
      ],
    ],
    [
      "policy_exists_rls_disabled",
      "create table public.t (id int); create policy p on public.t for select to anon using (id > 0)",
      [
        finding("no_primary_key", "INFO", "public.t"),
        finding("policy_exists_rls_disabled", "ERROR", "public.t"),
        finding("rls_disabled_in_public", "ERROR", "public.t"),
        ...graphqlVisible("public.t"),
      ],
    ],
    [
      "rls_enabled_no_policy (INFO)",
      "create table public.t (id int); alter table public.t enable row level security",
      [
        finding("no_primary_key", "INFO", "public.t"),
        finding("rls_enabled_no_policy", "INFO", "public.t"),
        ...graphqlVisible("public.t"),
      ],
    ],
    [
      "rls_references_user_metadata: auth.jwt()",
      `${AUTH_STAND_INS} ${quietTable("t")} alter table public.t enable row level security;
       create policy p on public.t for select to authenticated using (((select auth.jwt()) -> 'user_metadata' ->> 'role') = 'admin')`,
      [finding("rls_references_user_metadata", "ERROR", "public.t policy p")],
    ],
    [
      "rls_references_user_metadata: request.jwt.claims (also read per row)",
      `${quietTable("t")} alter table public.t enable row level security;
       create policy p on public.t for insert to authenticated
         with check ((current_setting('request.jwt.claims', true)::jsonb -> 'user_metadata' ->> 'role') = 'admin')`,
      [
        finding("auth_rls_initplan", "WARN", "public.t policy p"),
        finding("rls_references_user_metadata", "ERROR", "public.t policy p"),
      ],
    ],
    [
      "sensitive_columns_exposed",
      'create table public.accounts (id int primary key, "API-Key" text, password text, display_name text)',
      [
        finding("rls_disabled_in_public", "ERROR", "public.accounts"),
        finding("sensitive_columns_exposed", "ERROR", "public.accounts columns API-Key, password"),
        ...graphqlVisible("public.accounts"),
      ],
    ],
    [
      "public_bucket_allows_listing: just this bucket",
      `${STORAGE_STAND_INS} insert into storage.buckets values ('avatars', 'Avatars', true);
       create policy "Avatars are listable" on storage.objects for select to anon using (bucket_id = 'avatars')`,
      [
        finding(
          "public_bucket_allows_listing",
          "WARN",
          'storage bucket avatars policies "Avatars are listable"',
        ),
      ],
    ],
    [
      "public_bucket_allows_listing: always true, a bucket id with quotes and regex characters",
      `${STORAGE_STAND_INS} insert into storage.buckets values ('o''brien.[1]|x', 'Odd', true), ('other', 'Other', true);
       create policy odd on storage.objects for all using (( bucket_id = 'o''brien.[1]|x' ));
       create policy everything on storage.objects for select to authenticated using (true)`,
      [
        finding(
          "public_bucket_allows_listing",
          "WARN",
          "storage bucket o'brien.[1]|x policies everything, odd",
        ),
        finding("public_bucket_allows_listing", "WARN", "storage bucket other policies everything"),
      ],
    ],
  ],
  [
    [
      "rls_disabled_in_public: row-level security on",
      `create table public.t (id int primary key); alter table public.t enable row level security;
       create policy p on public.t for select to anon using (id > 0)`,
      graphqlVisible("public.t"),
    ],
    [
      "rls_disabled_in_public: a schema not exposed",
      `create schema app; grant usage on schema app to anon;
       create table app.t (id int primary key); grant select on app.t to anon`,
      [finding("pg_graphql_anon_table_exposed", "WARN", "app.t")],
    ],
    [
      "policy_exists_rls_disabled",
      `${quietTable("t")} create policy p on public.t for select to anon using (id > 0);
       alter table public.t enable row level security`,
      [],
    ],
    [
      "rls_enabled_no_policy",
      `${quietTable("t")} alter table public.t enable row level security;
       create policy nobody on public.t for select to anon using (false)`,
      [],
    ],
    [
      "rls_references_user_metadata",
      `${AUTH_STAND_INS} ${quietTable("t")} alter table public.t enable row level security;
       create policy p on public.t for select to authenticated using (((select auth.jwt()) -> 'app_metadata' ->> 'role') = 'admin')`,
      [],
    ],
    [
      "sensitive_columns_exposed",
      `create table public.accounts (id int primary key, "API-Key" text, password text);
       alter table public.accounts enable row level security`,
      [
        finding("rls_enabled_no_policy", "INFO", "public.accounts"),
        ...graphqlVisible("public.accounts"),
      ],
    ],
    [
      "public_bucket_allows_listing",
      `${STORAGE_STAND_INS}
       insert into storage.buckets values ('avatars', 'Avatars', true), ('private', 'Private', false);
       create policy narrower on storage.objects for select to anon using (bucket_id = 'avatars' and name like 'public/%');
       create policy restrictive on storage.objects as restrictive for select to anon using (bucket_id = 'avatars');
       create policy uploads on storage.objects for insert to authenticated with check (bucket_id = 'avatars');
       create policy private_bucket on storage.objects for select to anon using (bucket_id = 'private');
       create policy staff on storage.objects for select to service_role using (true)`,
      [],
    ],
  ],
);

describe("rls_policy_always_true", () => {
  const withPolicy = (policy: string): string =>
    `${quietTable("t")} alter table public.t enable row level security; create policy p on public.t ${policy}`;

  test.each([
    ["insert … with check (true) to anon", "for insert to anon with check (true)"],
    ["insert without with check to public", "for insert"],
    [
      "update using (1 = 1) to authenticated",
      "for update to authenticated using (1 = 1) with check (id > 0)",
    ],
    [
      "update using a condition but with check ( TRUE ) to anon",
      "for update to anon using (id > 0) with check ( TRUE )",
    ],
    ["delete using (true) to anon", "for delete to anon using (true)"],
    ["all to anon, authenticated using (true)", "for all to anon, authenticated using (true)"],
  ])("%s is flagged", async (_label, policy) => {
    expect(await database().lint(withPolicy(policy))).toEqual([
      finding("rls_policy_always_true", "WARN", "public.t policy p"),
    ]);
  });

  test.each([
    ["a read policy using (true)", "for select to anon using (true)"],
    ["a policy for service_role only", "for all to service_role using (true) with check (true)"],
    ["a restrictive policy", "as restrictive for insert to anon with check (true)"],
    ["an insert policy with a condition", "for insert to anon with check (id > 0)"],
  ])("%s is not flagged", async (_label, policy) => {
    expect(problems(await database().lint(withPolicy(policy)))).toEqual([]);
  });
});

test("the fixed versions of the first fixtures are clean", async () => {
  const findings = await database().lint(`
    create table public.t (id int primary key);
    alter table public.t enable row level security;
    create policy p on public.t for insert to anon with check (id > 0);
    revoke select on public.t from anon, authenticated;
    create view public.v with (security_invoker = on) as select 1 as x;
    revoke select on public.v from anon, authenticated;
    create function public.f() returns int language sql security definer set search_path = '' as 'select 1';
    revoke all on function public.f() from public, anon, authenticated;
  `);
  expect(findings).toEqual([]);
});
