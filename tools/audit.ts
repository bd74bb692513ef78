/**
 * `npm run audit`: Lighthouse on the production build, three times, medians against issue 4's budgets.
 *
 *   1. builds the site for a local backend on a free port (as the e2e tests do; `--reuse-build`
 *      reuses the last e2e build when public/ is unchanged since);
 *   2. serves public/ like a static host (tools/lib/static-server.ts: `_headers` applied, gzip)
 *      and starts the local backend the page is built for;
 *   3. runs Lighthouse (mobile preset, simulated throttling) 3 times, each in a fresh Chromium
 *      (the one the e2e tests use), and prints every run and the medians;
 *   4. measures the first load of / in the browser for the byte budgets (as the e2e budget test does);
 *   5. writes the last HTML report (and its JSON) and a summary of all runs to reports/;
 *   6. prints each budget as PASS/FAIL and exits 1 when one fails (`--no-fail`: report only), so
 *      it can gate a deploy; scores and times vary with the machine's load, so npm test never runs it.
 *
 * Options: --runs N (default 3), --reuse-build, --no-fail.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium as playwrightChromium } from "playwright-core";
import { startLocalBackend } from "../local-backend";
import { checkBudgets, formatRunsTable, medianMetrics, metricsFromResult, type LighthouseResultLike, type RunMetrics } from "./lib/audit-summary";
import { formatKb } from "./lib/budgets";
import { CHROMIUM_FLAGS, requireChromium } from "./lib/chromium";
import { runCli, wholeNumberOption } from "./lib/cli";
import { measureInitialJavaScript } from "./lib/initial-js";
import { startStaticServer } from "./lib/static-server";
import { buildOrReuse, PROJECT_ROOT, PUBLIC_DIR, REPORTS_DIR } from "./lib/test-build";
import { measureFirstLoad } from "./lib/transfer";

function parseOptions(args: string[]): { runs: number; reuseBuild: boolean; fail: boolean } {
  const { values } = parseArgs({
    args,
    options: { runs: { type: "string" }, "reuse-build": { type: "boolean", default: false }, "no-fail": { type: "boolean", default: false } },
  });
  return { runs: wholeNumberOption(values.runs, "runs", 3), reuseBuild: values["reuse-build"], fail: !values["no-fail"] };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const chromium = requireChromium();
  const info = await buildOrReuse(options.reuseBuild, (line) => console.log(`audit: ${line}`));

  const initialJs = measureInitialJavaScript(PUBLIC_DIR, "/");
  const server = await startStaticServer({ root: PUBLIC_DIR });
  const backend = await startLocalBackend({ port: info.backendPort, host: "127.0.0.1", dataDir: undefined, anonKey: info.anonKey });
  const { default: lighthouse } = await import("lighthouse");
  const { launch } = await import("chrome-launcher");

  const runs: RunMetrics[] = [];
  let firstLoad: Awaited<ReturnType<typeof measureFirstLoad>> | undefined;
  let lastHtml = "";
  let lastJson = "";
  let lastVersion = "";
  try {
    const url = `${server.url}/`;
    console.log(`audit: Lighthouse on ${url} (mobile, simulated throttling), ${options.runs} runs, Chromium ${chromium.executablePath}`);
    const lighthouseOnce = async () => {
      const chrome = await launch({ chromePath: chromium.executablePath, chromeFlags: [...CHROMIUM_FLAGS], logLevel: "silent" });
      try {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: "html",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
        });
        if (!result) throw new Error("Lighthouse returned no result");
        return { result, metrics: metricsFromResult(result.lhr as unknown as LighthouseResultLike) };
      } finally {
        await chrome.kill();
      }
    };
    // Lighthouse sometimes fails to record a trace on this kind of machine (NO_NAVSTART,
    // NO_FCP): such a run says nothing about the page, so it is retried, at most twice.
    const MAX_ATTEMPTS = 3;
    for (let run = 1; run <= options.runs; run++) {
      let attempt = 1;
      let outcome: Awaited<ReturnType<typeof lighthouseOnce>>;
      for (;;) {
        try {
          outcome = await lighthouseOnce();
          break;
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS) throw error;
          console.log(`audit: run ${run}, attempt ${attempt} failed (${error instanceof Error ? error.message : String(error)}); trying again`);
          attempt += 1;
        }
      }
      const { result, metrics } = outcome;
      runs.push(metrics);
      lastHtml = Array.isArray(result.report) ? result.report[0]! : result.report;
      lastVersion = result.lhr.lighthouseVersion;
      lastJson = JSON.stringify(result.lhr);
      console.log(
        `audit: run ${run}: performance ${metrics.performance}, accessibility ${metrics.accessibility}, best practices ${metrics.bestPractices}, SEO ${metrics.seo}`,
      );
      for (const category of Object.values(result.lhr.categories)) {
        if ((category.score ?? 0) >= 1) continue;
        const losses = category.auditRefs
          .filter((ref) => ref.weight > 0 && (result.lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${ref.id} (${result.lhr.audits[ref.id]?.displayValue || result.lhr.audits[ref.id]?.score})`);
        if (losses.length > 0) console.log(`         ${category.title} loses points on: ${losses.join(", ")}`);
      }
    }
    // The byte budgets, measured as the e2e budget test does: a first visit on Lighthouse's
    // mobile screen, every response until the network is quiet, gzip bodies as served.
    const browser = await playwrightChromium.launch({ executablePath: chromium.executablePath, args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith("--headless")) });
    try {
      firstLoad = await measureFirstLoad(browser, server.url, { width: 412, height: 823 });
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
    await backend.close();
  }

  const medians = medianMetrics(runs);
  if (!firstLoad) throw new Error("the first load of / was not measured");
  const budgets = checkBudgets({ ...medians, totalBytes: firstLoad.totalBytes }, firstLoad.scriptBodyBytes);
  fs.mkdirSync(REPORTS_DIR, { recursive: true });
  const htmlPath = path.join(REPORTS_DIR, "lighthouse.html");
  fs.writeFileSync(htmlPath, lastHtml);
  fs.writeFileSync(path.join(REPORTS_DIR, "lighthouse.json"), lastJson);
  fs.writeFileSync(
    path.join(REPORTS_DIR, "lighthouse-summary.json"),
    `${JSON.stringify(
      {
        lighthouseVersion: lastVersion,
        date: new Date().toISOString(),
        runs,
        medians,
        firstLoad: { totalBytes: firstLoad.totalBytes, scriptBodyBytes: firstLoad.scriptBodyBytes, byType: firstLoad.byType },
        initialJsFromBuild: { gzipBytes: initialJs.totalGzipBytes, scripts: initialJs.scripts },
        budgets,
      },
      null,
      2,
    )}\n`,
  );

  console.log(`\nLighthouse ${lastVersion}, mobile preset, simulated throttling, ${runs.length} runs:\n`);
  console.log(formatRunsTable(runs, medians));
  console.log(
    [
      "",
      `First load of / in the browser (412 px, no interaction): ${formatKb(firstLoad.totalBytes)} in total, ${formatKb(firstLoad.scriptBodyBytes)} of JavaScript (gzip bodies).`,
      `Initial JavaScript as npm run size lists it from the build (HTML scripts + page chunk group, gzip -9): ${formatKb(initialJs.totalGzipBytes)}.`,
      "",
    ].join("\n"),
  );
  console.log("Budgets (medians):");
  for (const line of budgets) console.log(`  ${line.pass ? "PASS" : "FAIL"}  ${line.name.padEnd(26)} ${line.measured.padStart(9)}  (${line.limit})`);
  console.log(`\nLast report: ${path.relative(PROJECT_ROOT, htmlPath)} (and .json); all runs: reports/lighthouse-summary.json`);

  const failed = budgets.filter((line) => !line.pass);
  if (failed.length > 0 && options.fail) {
    console.error(`\n${failed.length} budget(s) failed: ${failed.map((line) => line.name).join(", ")}. (--no-fail reports without failing.)`);
    return 1;
  }
  return 0;
}

runCli(main);
