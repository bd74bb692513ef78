/**
 * Our own queries for the lints of Supabase's Advisors (the splinter project: Security and
 * Performance), written from their documented conditions, for tests to run on a migrated
 * database (docs/database.md). 0012, anonymous sign-ins, is an Auth setting, not SQL: it is
 * checked on supabase/config.toml (config-toml.test.ts). Test and tooling support only: the
 * server does not use it.
 */
import type { PGlite } from "@electric-sql/pglite";

import { EXPOSURE_LINTS } from "./exposure-lints";
import { PERFORMANCE_LINTS } from "./performance-lints";
import { RLS_LINTS } from "./rls-lints";
import { SCHEMA_LINTS } from "./schema-lints";
import type { AdvisorLevel, LintQuery } from "./sql";

export type { AdvisorLevel } from "./sql";

export interface AdvisorFinding {
  lint: string;
  level: AdvisorLevel;
  /** schema.object, with the policy, key, index, column or function arguments where that names it. */
  object: string;
}

/** Every lint, in Supabase's numbering. */
export const ADVISOR_LINTS: readonly LintQuery[] = [
  ...RLS_LINTS,
  ...EXPOSURE_LINTS,
  ...SCHEMA_LINTS,
  ...PERFORMANCE_LINTS,
].sort((a, b) => a.code.localeCompare(b.code));

/** Every finding of every lint, in lint order then object order. */
export async function runAdvisorLints(db: Pick<PGlite, "query">): Promise<AdvisorFinding[]> {
  const findings: AdvisorFinding[] = [];
  for (const { lint, level, sql, appliesIf } of ADVISOR_LINTS) {
    try {
      if (
        appliesIf !== undefined &&
        !(await db.query<{ applies: boolean }>(appliesIf)).rows[0]?.applies
      )
        continue;
      const result = await db.query<{ object: string }>(`${sql} order by 1`);
      for (const row of result.rows) findings.push({ lint, level, object: row.object });
    } catch (error) {
      throw new Error(
        `advisor lint ${lint} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return findings;
}
