import fs from "node:fs";
import type { Page } from "@playwright/test";
import type { AxeResults, Result, RunOptions } from "axe-core";

const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2.0, 2.1 and 2.2, levels A and AA, plus axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the page's
 * Content-Security-Policy does not have to allow it) and returns the violations.
 */
export async function axeViolations(page: Page, options: RunOptions = {}): Promise<Result[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (runOptions) =>
      (
        window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<AxeResults> } }
      ).axe.run(document, runOptions),
    {
      runOnly: { type: "tag", values: AXE_TAGS },
      resultTypes: ["violations"],
      ...options,
    } as RunOptions,
  );
  return results.violations;
}

/** One readable line per failing element, for assertion messages. */
export function describeViolations(violations: readonly Result[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? "?"}): ${violation.help} — ${node.target.join(" ")} — ${squashSummary(node.failureSummary)}`,
    ),
  );
}

function squashSummary(summary: string | undefined): string {
  return (summary ?? "").replace(/\s+/g, " ").trim();
}
