/** axe-core in the page: WCAG 2.0, 2.1 and 2.2, levels A and AA, plus axe's best practices. */
import fs from "node:fs";
import type { Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * One readable line per element that breaks a rule. axe is evaluated through the DevTools
 * protocol, so the page's Content-Security-Policy does not have to allow it.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const options: RunOptions = {
    runOnly: { type: "tag", values: AXE_TAGS },
    resultTypes: ["violations"],
  };
  const { violations } = await page.evaluate(
    (runOptions) =>
      (
        window as unknown as { axe: { run(context: Document, o: unknown): Promise<AxeResults> } }
      ).axe.run(document, runOptions),
    options,
  );
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? "?"}): ${violation.help} — ${node.target.join(" ")} — ${(node.failureSummary ?? "").replace(/\s+/g, " ").trim()}`,
    ),
  );
}
