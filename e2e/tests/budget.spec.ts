/**
 * What the first load of / costs and carries: the byte budgets of tools/lib/budgets.ts, measured
 * in Chromium and as the build lists them, without supabase-js (it arrives when the visitor nears
 * the form: form-start-up.spec.ts); and no visitor-facing words compiled into the JavaScript (they arrive with the page's data).
 */
import fs from "node:fs";
import path from "node:path";
import { chunkGroupScripts, type WebpackStats } from "../../build-time/page-scripts";
import { MESSAGE_LINES } from "../../src/lib/meeting-request";
import { TOAST_LIBRARY_WORDS } from "../../src/test-support/toast-library-words";
import {
  containsSupabaseJs,
  FIRST_LOAD_BUDGET_BYTES,
  formatKb,
  INITIAL_JS_BUDGET_GZIP_BYTES,
  START_UP_JS_BUDGET_GZIP_BYTES,
} from "../../tools/lib/budgets";
import { formatInitialJsReport, measureInitialJavaScript } from "../../tools/lib/initial-js";
import { PUBLIC_DIR } from "../../tools/lib/test-build";
import { measureFirstLoad } from "../../tools/lib/transfer";
import { content, squish } from "../support/content";
import { expect, test } from "../support/fixtures";

const VIEWPORTS = [
  { name: "mobile", width: 412, height: 823 }, // Lighthouse's mobile screen
  { name: "desktop", width: 1350, height: 940 }, // Lighthouse's desktop screen
];

for (const { name, width, height } of VIEWPORTS) {
  test(`first load of / on ${name}: total transfer ≤ ${formatKb(FIRST_LOAD_BUDGET_BYTES)}, initial JavaScript ≤ ${formatKb(INITIAL_JS_BUDGET_GZIP_BYTES)}, no supabase-js`, async ({
    browser,
    baseURL,
  }) => {
    const summary = await measureFirstLoad(browser, baseURL!, { width, height });
    const largestFirst = summary.entries.slice().sort((a, b) => b.bytes - a.bytes);
    console.log(
      [
        `${name} first load of /: ${formatKb(summary.totalBytes)}, initial JS ${formatKb(summary.scriptBodyBytes)}`,
        ...largestFirst.map((entry) => `  ${formatKb(entry.bytes).padStart(9)}  ${entry.url}`),
      ].join("\n"),
    );
    const failed = summary.entries.filter((entry) => entry.status >= 400);
    expect(failed.map((entry) => `${entry.status} ${entry.url}`)).toEqual([]);
    expect(summary.totalBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    expect(summary.scriptBodyBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_GZIP_BYTES);
    expect(summary.scriptBodies.filter(containsSupabaseJs), "supabase-js").toHaveLength(0);
  });
}

test(`start-up JavaScript of / as the build lists it (npm run size) ≤ ${formatKb(START_UP_JS_BUDGET_GZIP_BYTES)} gzip (no React, no form), without supabase-js`, () => {
  const report = measureInitialJavaScript(PUBLIC_DIR, "/");
  console.log(formatInitialJsReport(report));
  expect(report.scripts.length).toBeGreaterThan(0);
  expect(report.totalGzipBytes).toBeLessThanOrEqual(START_UP_JS_BUDGET_GZIP_BYTES);
  expect(report.scriptsWithSupabase).toEqual([]);
});

/** Every text of content/ of two words or more (single words occur in library code), except links and paths. */
function contentTexts(): string[] {
  const leaves = (value: unknown): string[] =>
    typeof value === "string"
      ? [squish(value)]
      : value && typeof value === "object"
        ? Object.values(value).flatMap(leaves)
        : [];
  // The stored message's line labels are code on purpose (src/lib/meeting-request.ts).
  const recordFormat = new Set<string>(
    Object.values(MESSAGE_LINES).flatMap((line) => [line.label, line.empty]),
  );
  return leaves(content).filter(
    (text) =>
      text.includes(" ") &&
      !/^(?:#|\/|\.\/|https?:|mailto:|tel:)/.test(text) &&
      !recordFormat.has(text) &&
      !TOAST_LIBRARY_WORDS.has(text),
  );
}

/**
 * The scripts of the current build: the named chunks webpack lists, and the lazy chunks its
 * runtime can load (Gatsby leaves the scripts of earlier builds in public/).
 */
function currentScripts(): string[] {
  const stats = JSON.parse(
    fs.readFileSync(path.join(PUBLIC_DIR, "webpack.stats.json"), "utf8"),
  ) as WebpackStats;
  const groups = Object.keys(stats.namedChunkGroups ?? {});
  const named = [...new Set(groups.flatMap((group) => chunkGroupScripts(stats, group)!))];
  const runtime = named.find((name) => name.startsWith("webpack-runtime-"));
  if (!runtime) throw new Error("No webpack runtime in public/webpack.stats.json.");
  const runtimeCode = fs.readFileSync(path.join(PUBLIC_DIR, runtime), "utf8");
  const lazy = fs
    .readdirSync(PUBLIC_DIR)
    .filter(
      (name) =>
        name.endsWith(".js") &&
        !named.includes(name) &&
        runtimeCode.includes(`"${name.slice(name.lastIndexOf("-") + 1, -".js".length)}"`),
    );
  return [...named, ...lazy];
}

test("no visitor-facing words are compiled into the JavaScript: they arrive with the page's data", () => {
  const scripts = currentScripts();
  expect(scripts.length).toBeGreaterThan(4); // runtime, framework, app, two pages, lazy chunks
  const facts = [
    new RegExp(`\\b${content.expo.startDate.slice(0, 4)}\\b`),
    new RegExp(`\\b${content.contact.booth}\\b`),
    new RegExp(content.expo.eventName.split(" ")[0]!),
  ];
  const texts = contentTexts();
  const found: string[] = [];
  for (const name of scripts) {
    // As the words would appear in a string literal: \u escapes and escaped quotes undone.
    const code = fs
      .readFileSync(path.join(PUBLIC_DIR, name), "utf8")
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\(['"])/g, "$1");
    for (const text of texts) if (code.includes(text)) found.push(`${name}: "${text}"`);
    for (const fact of facts) if (fact.test(code)) found.push(`${name}: ${fact}`);
  }
  expect(found).toEqual([]);
});
