/**
 * Supabase's Advisor on our migrations: every lint (lints.ts) run on PGlite databases migrated
 * with Supabase's roles and default grants. The migrated schema must have no ERROR or WARN;
 * INFO findings (unused indexes on a fresh database, tables kept closed without a policy) are
 * printed, not failures. The lints themselves are proven on fixtures in the *-lints.test.ts files.
 */
import { supabaseLike } from "../../local-backend/test-support/supabase-like";
import { openedForTests } from "../../local-backend/test-support/helpers";
import { problems } from "./fixture-database";
import { runAdvisorLints } from "./lints";

jest.setTimeout(90_000);

const POLICY = '"Visitors can send a meeting request"';

test("the bare database (roles and grants only) has no findings", async () => {
  const bare = await supabaseLike({ migrationCount: 0 });
  try {
    expect(await runAdvisorLints(bare)).toEqual([]);
  } finally {
    await bare.close();
  }
});

describe("our migrations", () => {
  const migrated = openedForTests(() => supabaseLike());

  test("before 20251123190000 the advisor warned rls_policy_always_true on the visitors' policy, and nothing else", async () => {
    const before = await supabaseLike({ migrationCount: 2 });
    try {
      const findings = await runAdvisorLints(before);
      console.log(`advisor lints on the first two migrations: ${JSON.stringify(findings)}`);
      expect(problems(findings)).toEqual([
        {
          lint: "rls_policy_always_true",
          level: "WARN",
          object: `public.contacts policy ${POLICY}`,
        },
      ]);
    } finally {
      await before.close();
    }
  });

  test("all migrations: no advisor errors or warnings", async () => {
    const findings = await runAdvisorLints(migrated());
    console.log(`advisor lints on all migrations: ${JSON.stringify(findings)}`);
    expect(problems(findings)).toEqual([]);
  });
});
