/**
 * For the lint tests: a Supabase-like database with no migration (its roles and default grants
 * only) on which each fixture is applied in a transaction, linted and rolled back.
 */
import type { PGlite } from "@electric-sql/pglite";
import { citext } from "@electric-sql/pglite/contrib/citext";

import { supabaseLike } from "../../local-backend/test-support/supabase-like";
import { openedForTests } from "../../local-backend/test-support/helpers";
import { runAdvisorLints, type AdvisorFinding } from "./lints";

export interface FixtureDatabase {
  db: PGlite;
  /** The findings with `fixture` applied (then rolled back). */
  lint(fixture: string): Promise<AdvisorFinding[]>;
  close(): Promise<void>;
}

/** citext is available (not installed) so that fixtures can create an extension. */
export async function openFixtureDatabase(): Promise<FixtureDatabase> {
  const db: PGlite = await supabaseLike({ migrationCount: 0, extensions: { citext } });
  return {
    db,
    async lint(fixture) {
      let findings: AdvisorFinding[] = [];
      await db.transaction(async (tx) => {
        await tx.exec(fixture);
        findings = await runAdvisorLints(tx);
        await tx.rollback();
      });
      return findings;
    },
    close: () => db.close(),
  };
}

/** A lint test's row: what it shows, the fixture, and every finding of every lint on it. */
export type LintCase = [label: string, fixture: string, expected: AdvisorFinding[]];

/**
 * Opens the fixture database for the calling test file, then checks each bad fixture (test "label")
 * and each fixed one (test "label: fixed"). Returns the database for the file's other tests.
 */
export function lintCases(bad: LintCase[], fixed: LintCase[]): () => FixtureDatabase {
  jest.setTimeout(90_000);
  const database = openedForTests(openFixtureDatabase);
  const check = async (_label: string, fixture: string, expected: AdvisorFinding[]) =>
    expect(await database().lint(fixture)).toEqual(expected);
  describe("each lint catches a bad fixture and passes a fixed one", () => {
    test.each(bad)("%s", check);
    test.each(fixed)("%s: fixed", check);
  });
  return database;
}

export const problems = (findings: AdvisorFinding[]): AdvisorFinding[] =>
  findings.filter((finding) => finding.level !== "INFO");

/** Stand-ins for Supabase Auth's table and helpers (created inside a fixture, so rolled back). */
export const AUTH_STAND_INS = `
  create schema auth;
  create table auth.users (id uuid primary key, email text unique, raw_user_meta_data jsonb);
  create function auth.uid() returns uuid language sql stable as 'select null::uuid';
  create function auth.jwt() returns jsonb language sql stable as 'select ''{}''::jsonb';
`;

/** A table in public that no lint minds: a primary key, and no grant to the API roles. */
export const quietTable = (name: string, columns = "id int primary key"): string => `
  create table public.${name} (${columns});
  revoke all on public.${name} from anon, authenticated;
`;

export const finding = (
  lint: string,
  level: AdvisorFinding["level"],
  object: string,
): AdvisorFinding => ({ lint, level, object });

/** What pg_graphql shows of a table or view that anon and authenticated may read. */
export const graphqlVisible = (object: string): AdvisorFinding[] => [
  finding("pg_graphql_anon_table_exposed", "WARN", object),
  finding("pg_graphql_authenticated_table_exposed", "WARN", object),
];
