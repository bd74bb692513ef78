/**
 * Supabase's Security Advisor on our migrations: our own queries for its security lints
 * (advisor-lints.ts) run on a PGlite database migrated with Supabase's roles and default
 * grants. Each lint is first shown to catch a deliberately bad fixture; then the migrated
 * schema must have no ERROR or WARN. Also: the visitors' INSERT policy, which replaced
 * `with check (true)`, refuses exactly what the CHECK constraints refuse, with their errors.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite, type Transaction } from "@electric-sql/pglite";

import { CONTACT_COLUMN_LIMITS } from "../src/lib/field-limits";
import { runAdvisorLints, type AdvisorFinding } from "./advisor-lints";
import { applyMigrations, listMigrations } from "./database";
import { defaultMigrationsDir } from "./paths";
import { goodRow, rejection, uniqueEmail } from "./test-helpers";

jest.setTimeout(90_000);

const POLICY = '"Visitors can send a meeting request"';

/** What every new Supabase project grants on objects created in public (the reason for our revokes). */
const SUPABASE_DEFAULT_GRANTS = `
  alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
  grant usage on schema public to anon, authenticated, service_role;
`;

const temporaryDirs: string[] = [];

function migrationsUpTo(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "advisor-migrations-"));
  temporaryDirs.push(dir);
  for (const name of listMigrations(defaultMigrationsDir()).slice(0, count)) {
    fs.copyFileSync(path.join(defaultMigrationsDir(), name), path.join(dir, name));
  }
  return dir;
}

/** A fresh database with Supabase's roles and default grants, then the given migrations. */
async function supabaseLike(migrationsDir: string): Promise<PGlite> {
  const db = await PGlite.create();
  await applyMigrations(db, migrationsUpTo(0));
  await db.exec(SUPABASE_DEFAULT_GRANTS);
  await applyMigrations(db, migrationsDir);
  return db;
}

const problems = (findings: AdvisorFinding[]): AdvisorFinding[] => findings.filter((finding) => finding.level !== "INFO");

let migrated: PGlite;
let bare: PGlite;

beforeAll(async () => {
  migrated = await supabaseLike(defaultMigrationsDir());
  bare = await supabaseLike(migrationsUpTo(0));
});

afterAll(async () => {
  await migrated?.close();
  await bare?.close();
  for (const dir of temporaryDirs) fs.rmSync(dir, { recursive: true, force: true });
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
    const before = await supabaseLike(migrationsUpTo(2));
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

describe("the visitors' INSERT policy refuses what the CHECK constraints refuse, with their errors", () => {
  interface ErrorFields {
    code?: string;
    message: string;
    detail?: string;
    schema?: string;
    table?: string;
    column?: string;
    constraint?: string;
  }

  const fields = (error: ErrorFields): ErrorFields => {
    const { code, message, detail, schema, table, column, constraint } = error;
    return { code, message, detail, schema, table, column, constraint };
  };

  async function insertAsAnon(tx: Transaction, row: object): Promise<void> {
    await tx.query("set local role anon");
    await tx.query(
      "insert into public.contacts (name, email, organization, message) values ($1, $2, $3, $4)",
      Object.values(row),
    );
  }

  /** The error an anon insert gets from the policy, and the one it got when the constraints alone decided. */
  async function bothErrors(row: object): Promise<[ErrorFields, ErrorFields]> {
    const withPolicy = await rejection(migrated.transaction((tx) => insertAsAnon(tx, row)));
    const constraintsOnly = await rejection(
      migrated.transaction(async (tx) => {
        await tx.query(`alter policy ${POLICY} on public.contacts with check (true)`);
        await insertAsAnon(tx, row);
      }),
    );
    return [fields(withPolicy as ErrorFields), fields(constraintsOnly as ErrorFields)];
  }

  const { name: nameMax, organization: organizationMax, email: emailMax, message: messageMax } = CONTACT_COLUMN_LIMITS;
  const longEmail = `${"a".repeat(emailMax)}@example.org`;

  test.each<[string, Record<string, unknown>]>([
    ["name too long", { name: "x".repeat(nameMax + 1) }],
    ["organization too long", { organization: "x".repeat(organizationMax + 1) }],
    ["message too long", { message: "x".repeat(messageMax + 1) }],
    ["email too long", { email: longEmail }],
    ["empty name", { name: "" }],
    ["empty organization", { organization: "" }],
    ["empty message", { message: "" }],
    ["blank name", { name: " \u00a0\u3000" }],
    ["blank organization", { organization: "\t\ufeff" }],
    ["email without @", { email: "no-at.example.org" }],
    ["email with a space", { email: "a b@c.de" }],
    ["email with a newline", { email: "a@b.co\n" }],
    ["null name", { name: null }],
    ["null email", { email: null }],
    ["null organization", { organization: null }],
    ["null message", { message: null }],
    ["null name and a bad email", { name: null, email: "x" }],
    ["blank name and a bad email", { name: " ", email: "x" }],
    ["organization too long and name blank", { name: " ", organization: "x".repeat(organizationMax + 1) }],
    ["message empty and email too long", { message: "", email: longEmail }],
    ["everything wrong", { name: "", email: "", organization: "", message: "" }],
  ])("%s", async (_label, overrides) => {
    const [withPolicy, constraintsOnly] = await bothErrors(goodRow(overrides));
    expect(["23514", "23502"]).toContain(constraintsOnly.code);
    expect(withPolicy).toEqual(constraintsOnly);
  });

  test("rows at the limits pass the policy", async () => {
    const atLimits = {
      name: "n".repeat(nameMax),
      email: `${"a".repeat(emailMax - "@example.org".length)}@example.org`,
      organization: "o".repeat(organizationMax),
      message: "🚌".repeat(messageMax),
    };
    await migrated.transaction((tx) => insertAsAnon(tx, atLimits));
    await migrated.transaction((tx) => insertAsAnon(tx, goodRow({ email: uniqueEmail("policy") })));
  });

  test("the policy's condition is not trivially true, and only anon may run its function", async () => {
    const policy = await migrated.query<{ with_check: string }>(
      `select pg_get_expr(polwithcheck, polrelid) as with_check from pg_policy
        where polrelid = 'public.contacts'::regclass and polname = 'Visitors can send a meeting request'`,
    );
    expect(policy.rows).toEqual([{ with_check: "private.contacts_visitor_request_allowed(name, email, organization, message)" }]);
    const canRun = await migrated.query<{ role: string; allowed: boolean }>(
      `select r as role, has_function_privilege(r, 'private.contacts_visitor_request_allowed(text, text, text, text)', 'execute') as allowed
         from unnest(array['anon', 'authenticated']) r`,
    );
    expect(canRun.rows).toEqual([
      { role: "anon", allowed: true },
      { role: "authenticated", allowed: false },
    ]);
  });
});
