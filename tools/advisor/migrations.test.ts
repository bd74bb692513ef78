/**
 * Supabase's Advisor on our migrations: every lint (lints.ts) run on PGlite databases migrated
 * with Supabase's roles and default grants. The migrated schema must have no ERROR or WARN;
 * INFO findings (unused indexes on a fresh database, tables kept closed without a policy) are
 * printed, not failures. The lints themselves are proven on fixtures in the *-lints.test.ts files.
 */
import { supabaseLike } from "../../local-backend/supabase-like";
import { openedForTests } from "../../local-backend/test-helpers";
import { problems } from "./fixture-database";
import { runAdvisorLints } from "./lints";

jest.setTimeout(90_000);

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

  test("all migrations: no advisor errors or warnings", async () => {
    const findings = await runAdvisorLints(migrated());
    console.log(`advisor lints on all migrations: ${JSON.stringify(findings)}`);
    expect(problems(findings)).toEqual([]);
  });
});
