/**
 * The performance lints (performance-lints.ts), each on a deliberately bad fixture and on a
 * fixed one, applied to a database with Supabase's roles and default grants and rolled back.
 * Every list is every finding of every lint.
 */
import { AUTH_STAND_INS, finding, lintCases, quietTable } from "./fixture-database";

const PARENT_AND_CHILD = `${quietTable("parents", "a int, b int, primary key (a, b)")}
  ${quietTable("children", "id int primary key, a int, b int, foreign key (a, b) references public.parents (a, b)")}`;

const OWNED_DOCUMENTS = `${AUTH_STAND_INS} ${quietTable("docs", "id int primary key, owner uuid")}
  alter table public.docs enable row level security;`;

/**
 * Ten small rows, analysed, then a page count as if they had once been a million rows (set in
 * the catalog, in the rolled-back fixture: PGlite cannot VACUUM inside a transaction to make real bloat).
 */
const bloated = (pages: number): string => `${quietTable("t", "id int primary key, note text")}
  insert into public.t select g, 'note' from pg_catalog.generate_series(1, 10) g;
  analyze public.t;
  update pg_catalog.pg_class set relpages = ${pages} where oid = 'public.t'::pg_catalog.regclass;`;

lintCases(
  [
    [
      "unindexed_foreign_keys",
      PARENT_AND_CHILD,
      [finding("unindexed_foreign_keys", "INFO", "public.children foreign key children_a_b_fkey")],
    ],
    [
      "unindexed_foreign_keys: an index on the same columns in another order",
      `${PARENT_AND_CHILD} create unique index children_b_a_key on public.children (b, a)`,
      [finding("unindexed_foreign_keys", "INFO", "public.children foreign key children_a_b_fkey")],
    ],
    [
      "auth_rls_initplan: auth.uid() in using",
      `${OWNED_DOCUMENTS} create policy own on public.docs for select to authenticated using (owner = auth.uid())`,
      [finding("auth_rls_initplan", "WARN", "public.docs policy own")],
    ],
    [
      "auth_rls_initplan: current_setting() in with check",
      `${OWNED_DOCUMENTS} create policy own on public.docs for insert to authenticated
         with check (owner::text = current_setting('request.jwt.claim.sub', true))`,
      [finding("auth_rls_initplan", "WARN", "public.docs policy own")],
    ],
    [
      "no_primary_key",
      "create table public.log (at timestamptz); revoke all on public.log from anon, authenticated",
      [finding("no_primary_key", "INFO", "public.log")],
    ],
    [
      "unused_index",
      `${quietTable("t", "id int primary key, x int")} create index t_x_idx on public.t (x)`,
      [finding("unused_index", "INFO", "public.t index t_x_idx")],
    ],
    [
      "multiple_permissive_policies: for anon",
      `${quietTable("t")} alter table public.t enable row level security;
       create policy a on public.t for select to anon using (id > 0);
       create policy b on public.t for all to anon, authenticated using (id < 10)`,
      [finding("multiple_permissive_policies", "WARN", "public.t SELECT for anon: a, b")],
    ],
    [
      "multiple_permissive_policies: for PUBLIC (every role that does not bypass RLS)",
      `${quietTable("t")} alter table public.t enable row level security;
       create policy a on public.t for update using (id > 0) with check (id > 0);
       create policy b on public.t for update using (id < 10) with check (id < 10)`,
      [
        finding("multiple_permissive_policies", "WARN", "public.t UPDATE for anon: a, b"),
        finding("multiple_permissive_policies", "WARN", "public.t UPDATE for authenticated: a, b"),
      ],
    ],
    [
      "duplicate_index",
      `${quietTable("t", "id int primary key, x int")}
       create index t_x_a on public.t (x); create index t_x_b on public.t (x);
       create unique index t_id_key on public.t (id)`,
      [
        finding("unused_index", "INFO", "public.t index t_x_a"),
        finding("unused_index", "INFO", "public.t index t_x_b"),
        finding("duplicate_index", "WARN", "public.t indexes t_id_key, t_pkey"),
        finding("duplicate_index", "WARN", "public.t indexes t_x_a, t_x_b"),
      ],
    ],
    ["table_bloat", bloated(1_000_000), [finding("table_bloat", "INFO", "public.t")]],
  ],
  [
    [
      "unindexed_foreign_keys: the key leads a unique index",
      `${PARENT_AND_CHILD} create unique index children_a_b_id_key on public.children (a, b, id)`,
      [],
    ],
    [
      "unindexed_foreign_keys: an index on the key (now an unused index)",
      `${PARENT_AND_CHILD} create index children_a_b_idx on public.children (a, b)`,
      [finding("unused_index", "INFO", "public.children index children_a_b_idx")],
    ],
    [
      "auth_rls_initplan",
      `${OWNED_DOCUMENTS} create policy own on public.docs for select to authenticated using (owner = (select auth.uid()))`,
      [],
    ],
    [
      "no_primary_key",
      "create table public.log (at timestamptz primary key); revoke all on public.log from anon, authenticated",
      [],
    ],
    [
      "unused_index",
      `${quietTable("t", "id int primary key, x int")} create unique index t_x_key on public.t (x)`,
      [],
    ],
    [
      "multiple_permissive_policies: one policy per role and command, or restrictive",
      `${quietTable("t")} alter table public.t enable row level security;
       create policy a on public.t for select to anon using (id > 0);
       create policy b on public.t for select to authenticated using (id < 10);
       create policy c on public.t as restrictive for select to anon using (id < 100);
       create policy d on public.t for select to service_role using (true)`,
      [],
    ],
    [
      "duplicate_index: a partial index is another index",
      `${quietTable("t", "id int primary key, x int")}
       create index t_x_a on public.t (x); create index t_x_positive on public.t (x) where x > 0`,
      [
        finding("unused_index", "INFO", "public.t index t_x_a"),
        finding("unused_index", "INFO", "public.t index t_x_positive"),
      ],
    ],
    ["table_bloat: as many pages as its rows need", bloated(1), []],
    ["table_bloat: a hundred times too big, but less than 20 MiB wasted", bloated(100), []],
  ],
);
