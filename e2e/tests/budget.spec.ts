import fs from "node:fs";
import path from "node:path";
import { formatInitialJsReport, INITIAL_JS_BUDGET_GZIP_BYTES, measureInitialJavaScript } from "../../tools/lib/initial-js";
import { PUBLIC_DIR, REPORTS_DIR } from "../../tools/lib/test-build";
import { expect, test } from "../support/fixtures";
import { meetingForm } from "../support/form";
import { kb, measureFirstLoad, type TransferSummary } from "../../tools/lib/transfer";

/** Issue 4's byte budgets for the first load of `/` (gzip, as a static host serves it). */
const TOTAL_BUDGET = 300 * 1024;
const INITIAL_JS_BUDGET = 110 * 1024;

/** Text that only the supabase-js bundle contains (its client-info header and its errors). */
const SUPABASE_MARKER = /supabase-js[-:]|@supabase\/(auth|postgrest|realtime|storage)-js/;

const VIEWPORTS = [
  { name: "mobile", width: 412, height: 823 }, // Lighthouse's mobile screen
  { name: "desktop", width: 1350, height: 940 }, // Lighthouse's desktop screen
];

test.describe("byte budgets of the first load of /", () => {
  for (const viewport of VIEWPORTS) {
    test(`${viewport.name}: total transfer ≤ 300 KB, initial JavaScript ≤ 110 KB, no supabase-js`, async ({ browser, baseURL }, testInfo) => {
      const summary = await measureFirstLoad(browser, baseURL!, { width: viewport.width, height: viewport.height });
      const report = describe(summary);
      console.log(`${viewport.name} first load of /:\n${report}`);
      await testInfo.attach(`first-load-${viewport.name}.txt`, { body: report, contentType: "text/plain" });
      fs.mkdirSync(REPORTS_DIR, { recursive: true });
      const { scriptBodies: _bodies, ...stored } = summary;
      fs.writeFileSync(path.join(REPORTS_DIR, `first-load-${viewport.name}.json`), `${JSON.stringify(stored, null, 2)}\n`);

      expect(summary.entries.filter((entry) => entry.status >= 400).map((entry) => `${entry.status} ${entry.url}`)).toEqual([]);
      expect(summary.totalBytes, `total transfer ${kb(summary.totalBytes)}`).toBeLessThanOrEqual(TOTAL_BUDGET);
      expect(summary.scriptBodyBytes, `initial JavaScript ${kb(summary.scriptBodyBytes)}`).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
      expect(summary.scriptBodies.filter((body) => SUPABASE_MARKER.test(body)), "supabase-js is not in the initial JavaScript").toHaveLength(0);
    });
  }

  test("initial JavaScript of / as the build lists it (npm run size) ≤ 110 KB gzip, without supabase-js", async ({}, testInfo) => {
    const report = measureInitialJavaScript(PUBLIC_DIR, "/");
    const text = formatInitialJsReport(report);
    console.log(text);
    await testInfo.attach("initial-js.txt", { body: text, contentType: "text/plain" });
    expect(INITIAL_JS_BUDGET_GZIP_BYTES).toBe(INITIAL_JS_BUDGET);
    expect(report.scripts.length).toBeGreaterThan(0);
    expect(report.totalGzipBytes, `initial JavaScript ${kb(report.totalGzipBytes)} gzip`).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
    expect(report.scriptsWithSupabase).toEqual([]);
  });

  test("supabase-js arrives only once the visitor reaches the form", async ({ page }) => {
    const scripts: string[] = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() === "script") scripts.push(await response.text().catch(() => ""));
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(scripts.some((body) => SUPABASE_MARKER.test(body))).toBe(false);
    const loaded = page.waitForResponse((response) => response.request().resourceType() === "script");
    await meetingForm(page).fullName.focus();
    await loaded;
    await expect.poll(() => scripts.some((body) => SUPABASE_MARKER.test(body))).toBe(true);
  });
});

function describe(summary: TransferSummary): string {
  const lines = summary.entries
    .slice()
    .sort((a, b) => b.bytes - a.bytes)
    .map((entry) => `  ${kb(entry.bytes).padStart(9)}  ${entry.type.padEnd(10)} ${entry.url}`);
  const types = Object.entries(summary.byType)
    .map(([type, bytes]) => `${type} ${kb(bytes)}`)
    .join(", ");
  return [`total ${kb(summary.totalBytes)} (${types}); initial JS bodies ${kb(summary.scriptBodyBytes)}`, ...lines].join("\n");
}
