import fs from "node:fs";
import path from "node:path";
import {
  containsSupabaseJs,
  FIRST_LOAD_BUDGET_BYTES,
  formatKb,
  INITIAL_JS_BUDGET_GZIP_BYTES,
  START_UP_JS_BUDGET_GZIP_BYTES,
} from "../../tools/lib/budgets";
import { formatInitialJsReport, measureInitialJavaScript } from "../../tools/lib/initial-js";
import { PUBLIC_DIR, REPORTS_DIR } from "../../tools/lib/test-build";
import { measureFirstLoad, type TransferSummary } from "../../tools/lib/transfer";
import { expect, test } from "../support/fixtures";
import { meetingForm } from "../support/form";

const VIEWPORTS = [
  { name: "mobile", width: 412, height: 823 }, // Lighthouse's mobile screen
  { name: "desktop", width: 1350, height: 940 }, // Lighthouse's desktop screen
];

test.describe("byte budgets of the first load of /", () => {
  for (const viewport of VIEWPORTS) {
    test(`${viewport.name}: total transfer ≤ ${formatKb(FIRST_LOAD_BUDGET_BYTES)}, initial JavaScript ≤ ${formatKb(INITIAL_JS_BUDGET_GZIP_BYTES)}, no supabase-js`, async ({
      browser,
      baseURL,
    }, testInfo) => {
      const summary = await measureFirstLoad(browser, baseURL!, {
        width: viewport.width,
        height: viewport.height,
      });
      const report = describe(summary);
      console.log(`${viewport.name} first load of /:\n${report}`);
      await testInfo.attach(`first-load-${viewport.name}.txt`, {
        body: report,
        contentType: "text/plain",
      });
      fs.mkdirSync(REPORTS_DIR, { recursive: true });
      const { scriptBodies: _bodies, ...stored } = summary;
      fs.writeFileSync(
        path.join(REPORTS_DIR, `first-load-${viewport.name}.json`),
        `${JSON.stringify(stored, null, 2)}\n`,
      );

      expect(
        summary.entries
          .filter((entry) => entry.status >= 400)
          .map((entry) => `${entry.status} ${entry.url}`),
      ).toEqual([]);
      expect(
        summary.totalBytes,
        `total transfer ${formatKb(summary.totalBytes)}`,
      ).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
      expect(
        summary.scriptBodyBytes,
        `initial JavaScript ${formatKb(summary.scriptBodyBytes)}`,
      ).toBeLessThanOrEqual(INITIAL_JS_BUDGET_GZIP_BYTES);
      expect(
        summary.scriptBodies.filter(containsSupabaseJs),
        "supabase-js is not in the initial JavaScript",
      ).toHaveLength(0);
    });
  }

  test(`initial JavaScript of / as the build lists it (npm run size) ≤ ${formatKb(START_UP_JS_BUDGET_GZIP_BYTES)} gzip (no React, no form), without supabase-js`, async ({}, testInfo) => {
    const report = measureInitialJavaScript(PUBLIC_DIR, "/");
    const text = formatInitialJsReport(report);
    console.log(text);
    await testInfo.attach("initial-js.txt", { body: text, contentType: "text/plain" });
    expect(report.scripts.length).toBeGreaterThan(0);
    expect(
      report.totalGzipBytes,
      `initial JavaScript ${formatKb(report.totalGzipBytes)} gzip`,
    ).toBeLessThanOrEqual(START_UP_JS_BUDGET_GZIP_BYTES);
    expect(report.scriptsWithSupabase).toEqual([]);
  });

  test("supabase-js arrives only once the visitor reaches the form", async ({ page }) => {
    const scripts: string[] = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() === "script")
        scripts.push(await response.text().catch(() => ""));
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(scripts.some(containsSupabaseJs)).toBe(false);
    const loaded = page.waitForResponse(
      (response) => response.request().resourceType() === "script",
    );
    await meetingForm(page).fullName.focus();
    await loaded;
    await expect.poll(() => scripts.some(containsSupabaseJs)).toBe(true);
  });
});

function describe(summary: TransferSummary): string {
  const lines = summary.entries
    .slice()
    .sort((a, b) => b.bytes - a.bytes)
    .map(
      (entry) => `  ${formatKb(entry.bytes).padStart(9)}  ${entry.type.padEnd(10)} ${entry.url}`,
    );
  const types = Object.entries(summary.byType)
    .map(([type, bytes]) => `${type} ${formatKb(bytes)}`)
    .join(", ");
  return [
    `total ${formatKb(summary.totalBytes)} (${types}); initial JS bodies ${formatKb(summary.scriptBodyBytes)}`,
    ...lines,
  ].join("\n");
}
