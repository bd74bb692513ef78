/**
 * Supabase's Security Advisor on our migrations: our own queries for its lints (lints.ts) run
 * on a PGlite database migrated with Supabase's roles and default grants. Each lint is first
 * shown to catch a deliberately bad fixture; then the migrated schema must have no ERROR or WARN.
 */
import type { PGlite } from "@electric-sql/pglite";

import { supabaseLike } from "../../local-backend/supabase-like";
import { runAdvisorLints, type AdvisorFinding } from "./lints";

jest.setTimeout(90_000);

const POLICY = '"Visitors can send a meeting request"';

const problems = (findings: AdvisorFinding[]): AdvisorFinding[] => findings.filter((finding) => finding.level !== "INFO");

let migrated: PGlite;
let bare: PGlite;

beforeAll(async () => {
  migrated = await supabaseLike();
  bare = await supabaseLike({ migrationCount: 0 });
});

afterAll(async () => {
  await migrated?.close();
  await bare?.close();
});

/** Runs the lints with `fixture` applied to the bare database, then rolls the fixture back. */
async function lintFixture(fixture: string): Promise<AdvisorFinding[]> {
  let findings: AdvisorFinding[] = [];
  await bare.transaction(async (tx) => {
    await tx.exec(fixture);
    findings = await runAdvisorLints(tx);
    await tx.rollback();
  });
  return findings;
}

describe("each lint catches a bad fixture and passes a good one", () => {
  test("the bare database (roles and grants only) has no findings", async () => {
    expect(await runAdvisorLints(bare)).toEqual([]);
  });

  test.each<[string, string, AdvisorFinding[]]>([
    ["rls_disabled_in_public", "create table public.t (id int)", [{ lint: "rls_disabled_in_public", level: "ERROR", object: "public.t" }]],
    [
      "policy_exists_rls_disabled",
      "create table public.t (id int); create policy p on public.t for select to anon using (id > 0)",
      [
        { lint: "rls_disabled_in_public", level: "ERROR", object: "public.t" },
        { lint: "policy_exists_rls_disabled", level: "ERROR", object: "public.t" },
      ],
    ],
    [
      "rls_enabled_no_policy (INFO)",
      "create table public.t (id int); alter table public.t enable row level security",
      [{ lint: "rls_enabled_no_policy", level: "INFO", object: "public.t" }],
    ],
    [
      "security_definer_view",
      "create view public.v as select 1 as x",
      [{ lint: "security_definer_view", level: "ERROR", object: "public.v" }],
    ],
    [
      "function_search_path_mutable",
      "create function public.f(a int) returns int language sql as 'select a'",
      [{ lint: "function_search_path_mutable", level: "WARN", object: "public.f(a integer)" }],
    ],
    [
      "anon/authenticated_security_definer_function_executable",
      "create function public.f() returns int language sql security definer set search_path = '' as 'select 1'",
      [
        { lint: "anon_security_definer_function_executable", level: "WARN", object: "public.f()" },
        { lint: "authenticated_security_definer_function_executable", level: "WARN", object: "public.f()" },
      ],
    ],
  ])("%s", async (_lint, fixture, expected) => {
    expect(await lintFixture(fixture)).toEqual(expected);
  });

  test.each([
    ["insert … with check (true) to anon", "for insert to anon with check (true)"],
    ["insert without with check to public", "for insert"],
    ["update using (1 = 1) to authenticated", "for update to authenticated using (1 = 1) with check (id > 0)"],
    ["update using a condition but with check ( TRUE ) to anon", "for update to anon using (id > 0) with check ( TRUE )"],
    ["delete using (true) to anon", "for delete to anon using (true)"],
    ["all to anon, authenticated using (true)", "for all to anon, authenticated using (true)"],
  ])("rls_policy_always_true: %s is flagged", async (_label, policy) => {
    const findings = await lintFixture(
      `create table public.t (id int); alter table public.t enable row level security; create policy p on public.t ${policy}`,
    );
    expect(findings).toEqual([{ lint: "rls_policy_always_true", level: "WARN", object: "public.t policy p" }]);
  });

  test.each([
    ["a read policy using (true)", "for select to anon using (true)"],
    ["a policy for service_role only", "for all to service_role using (true) with check (true)"],
    ["a restrictive policy", "as restrictive for insert to anon with check (true)"],
    ["an insert policy with a condition", "for insert to anon with check (id > 0)"],
  ])("rls_policy_always_true: %s is not flagged", async (_label, policy) => {
    const findings = await lintFixture(
      `create table public.t (id int); alter table public.t enable row level security; create policy p on public.t ${policy}`,
    );
    expect(problems(findings)).toEqual([]);
  });

  test("fixed versions of the fixtures are clean", async () => {
    const findings = await lintFixture(`
      create table public.t (id int);
      alter table public.t enable row level security;
      create policy p on public.t for insert to anon with check (id > 0);
      create view public.v with (security_invoker = on) as select 1 as x;
      create function public.f() returns int language sql security definer set search_path = '' as 'select 1';
      revoke all on function public.f() from public, anon, authenticated;
    `);
    expect(findings).toEqual([]);
  });
});

describe("our migrations", () => {
  test("before 20251123190000 the advisor warned rls_policy_always_true on the visitors' policy, and nothing else", async () => {
    const before = await supabaseLike({ migrationCount: 2 });
    try {
      const findings = await runAdvisorLints(before);
      console.log(`advisor lints on the first two migrations: ${JSON.stringify(findings)}`);
      expect(problems(findings)).toEqual([
        { lint: "rls_policy_always_true", level: "WARN", object: `public.contacts policy ${POLICY}` },
      ]);
    } finally {
      await before.close();
    }
  });

  test("all migrations: no advisor errors or warnings", async () => {
    const findings = await runAdvisorLints(migrated);
    console.log(`advisor lints on all migrations: ${JSON.stringify(findings)}`);
    expect(problems(findings)).toEqual([]);
  });
});
