/**
 * `npm run audit [-- --runs N] [--reuse-build] [--no-fail] [--baseline <built site folder>]`:
 * Lighthouse (mobile, simulated throttling) on the production build, medians against the budgets.
 *
 * Runs are interleaved with runs on a bare Gatsby page (lib/bare-gatsby.ts), on our page without
 * scripts and on the `--baseline` build, so the machine's load touches them alike; the byte budgets
 * come from a first load in the browser. Writes the last report to
 * reports/lighthouse.{html,json}; exits 1 when a budget fails (`--no-fail`: report only).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

import type { RunnerResult } from "lighthouse";

import { startLocalBackend } from "../local-backend";
import {
  checkBudgets,
  compareWithFramework,
  formatComparisonTable,
  formatRunsTable,
  type Check,
  type FrameworkComparison,
  formatKb,
  formatMs,
} from "./lib/budgets";
import { bareGatsbyBuild } from "./lib/bare-gatsby";
import { launchChromium, PHONE, requireChromium } from "./lib/chromium";
import { runCli, wholeNumberOption } from "./lib/cli";
import { measureInitialJavaScript } from "./lib/initial-js";
import { describeLosses, interleavedLighthouseRuns, type PageRuns } from "./lib/lighthouse";
import { copyWithoutScripts } from "./lib/site-copy";
import { startStaticServer } from "./lib/static-server";
import {
  buildOrReuse,
  PROJECT_ROOT,
  PUBLIC_DIR,
  REPORTS_DIR,
  type BuildInfo,
} from "./lib/test-build";
import { measureFirstLoad } from "./lib/transfer";

const log = (line: string) => console.log(`audit: ${line}`);

function parseOptions() {
  const { values } = parseArgs({
    options: {
      runs: { type: "string" },
      "reuse-build": { type: "boolean", default: false },
      "no-fail": { type: "boolean", default: false },
      baseline: { type: "string" },
    },
  });
  const baseline = values.baseline && path.resolve(values.baseline);
  if (baseline && !fs.existsSync(path.join(baseline, "index.html")))
    throw new Error(`--baseline ${baseline}: no index.html there (give a built site folder).`);
  const runs = wholeNumberOption(values.runs, "runs", 3);
  return { runs, reuseBuild: values["reuse-build"], fail: !values["no-fail"], baseline };
}

/** Lighthouse on every page, interleaved, and the first load of ours in the browser. */
async function measure(options: ReturnType<typeof parseOptions>, info: BuildInfo, bareDir: string) {
  const executablePath = requireChromium();
  const noScripts = copyWithoutScripts(PUBLIC_DIR);
  const folders = [
    PUBLIC_DIR,
    bareDir,
    noScripts.dir,
    ...(options.baseline ? [options.baseline] : []),
  ];
  const servers = await Promise.all(folders.map((root) => startStaticServer({ root })));
  const backend = await startLocalBackend({ port: info.backendPort });
  try {
    log(
      `Lighthouse (mobile, simulated throttling), ${options.runs} runs each of our page, a bare Gatsby page and our page without scripts, interleaved; Chromium ${executablePath}`,
    );
    const labels = ["our page", "bare Gatsby page", "our page without scripts", "baseline build"];
    const pages = servers.map((server, index) => ({
      label: labels[index]!,
      url: `${server.url}/`,
    }));
    const runs = await interleavedLighthouseRuns(pages, options.runs, executablePath, log);
    for (const run of runs[0]!.runs)
      for (const line of describeLosses(run.result)) console.log(`         ${line}`);
    // The byte budgets as the e2e budget test measures them: a first visit on the phone's screen,
    // every response until the network is quiet, gzip bodies as served.
    const browser = await launchChromium();
    try {
      return { runs, firstLoad: await measureFirstLoad(browser, servers[0]!.url, PHONE.viewport) };
    } finally {
      await browser.close();
    }
  } finally {
    await Promise.all([...servers.map((server) => server.close()), backend.close()]);
    noScripts.remove();
  }
}

/** The last run's Lighthouse report of our page, for a person to open. */
function writeReport({ report, lhr }: RunnerResult): string {
  fs.mkdirSync(REPORTS_DIR, { recursive: true });
  const htmlPath = path.join(REPORTS_DIR, "lighthouse.html");
  fs.writeFileSync(htmlPath, Array.isArray(report) ? report[0]! : report);
  fs.writeFileSync(path.join(REPORTS_DIR, "lighthouse.json"), JSON.stringify(lhr));
  return htmlPath;
}

function printChecks(title: string, checks: Check[]): void {
  console.log(title);
  for (const { pass, name, measured, limit } of checks)
    console.log(
      `  ${pass ? "PASS" : "FAIL"}  ${name.padEnd(26)} ${measured.padStart(9)}  (${limit})`,
    );
}

async function main(): Promise<number> {
  const options = parseOptions();
  requireChromium();
  const info = await buildOrReuse(options.reuseBuild, log);
  const initialJs = measureInitialJavaScript(PUBLIC_DIR, "/");
  const bareGatsby = await bareGatsbyBuild();
  log(
    bareGatsby.reused
      ? "reusing the bare Gatsby page in reports/bare-gatsby/"
      : `built the bare Gatsby page in ${bareGatsby.buildSeconds.toFixed(0)} s`,
  );
  const bareInitialJs = measureInitialJavaScript(bareGatsby.publicDir, "/");
  const { runs: pages, firstLoad } = await measure(options, info, bareGatsby.publicDir);
  const [ours, bare, withoutScripts, baseline] = pages as [PageRuns, PageRuns, PageRuns, PageRuns?];
  const comparison: FrameworkComparison = {
    ours: ours.medians,
    bare: bare.medians,
    noScripts: withoutScripts.medians,
    initialJs: {
      oursGzipBytes: initialJs.totalGzipBytes,
      bareGzipBytes: bareInitialJs.totalGzipBytes,
    },
  };
  const { totalBytes, scriptBodyBytes } = firstLoad;
  const budgets = checkBudgets({ ...ours.medians, totalBytes }, scriptBodyBytes);
  const htmlPath = writeReport(ours.runs.at(-1)!.result);

  const runs = ours.runs.map((run) => run.metrics);
  const version = ours.runs.at(-1)!.result.lhr.lighthouseVersion;
  console.log(
    `\nLighthouse ${version}, mobile preset, simulated throttling, ${runs.length} runs:\n`,
  );
  console.log(formatRunsTable(runs, ours.medians));
  console.log(
    `\nFirst load of / in the browser (412 px, no interaction): ${formatKb(totalBytes)} in total, ${formatKb(scriptBodyBytes)} of JavaScript (gzip bodies).`,
  );
  console.log(
    `Initial JavaScript as npm run size lists it from the build (the HTML's scripts and what its loader starts, gzip -9): ${formatKb(initialJs.totalGzipBytes)}.\n`,
  );
  console.log(
    `Beside a bare Gatsby page (same node_modules) and our page with every script removed, same run, medians of ${runs.length}:\n`,
  );
  console.log(formatComparisonTable(comparison));
  if (baseline && options.baseline) {
    const m = baseline.medians;
    const js = measureInitialJavaScript(options.baseline, "/").totalGzipBytes;
    console.log(
      `\nThe baseline build (${path.relative(PROJECT_ROOT, options.baseline) || "."}), same runs: initial JavaScript ${formatKb(js)} gzip, ` +
        `TBT ${formatMs(m.tbtMs)}, LCP ${formatMs(m.lcpMs)}, FCP ${formatMs(m.fcpMs)}, performance ${m.performance}, script transfer ${formatKb(m.scriptBytes)}.`,
    );
  }
  console.log("");
  printChecks("Budgets (medians):", budgets);
  // The comparison with the bare framework is a target (docs/performance.md): it never fails.
  printChecks(
    "Targets against the bare Gatsby page (medians, reported only):",
    compareWithFramework(comparison),
  );
  console.log(`\nLast report: ${path.relative(PROJECT_ROOT, htmlPath)} (and .json)`);
  const failed = budgets.filter((line) => !line.pass);
  if (failed.length === 0 || !options.fail) return 0;
  console.error(
    `\n${failed.length} budget(s) failed: ${failed.map((line) => line.name).join(", ")}. (--no-fail reports without failing.)`,
  );
  return 1;
}

runCli(main);
