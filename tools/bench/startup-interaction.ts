/**
 * `npm run bench:startup [-- --runs N (default 5)] [--build] [<built site folder>]`: how responsive
 * `/` is while it starts, for a visitor on a slow phone who does not wait for it.
 *
 * Each run opens `/` with the CPU slowed 4× and Lighthouse's slow 4G; at the first paint the visitor
 * taps the call to action, then types into the form. A run's figure is its worst interaction from
 * Event Timing (what INP is computed from). The same runs on the page with every script removed
 * give the floor. Exit 1 only when the form lost what the visitor typed.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import type { Browser } from "playwright-core";
import { firstPaint, launchChromium, PHONE, phonePage, requireChromium } from "../lib/chromium";
import { runCli, wholeNumberOption } from "../lib/cli";
import { copyWithoutScripts } from "../lib/site-copy";
import { startStaticServer } from "../lib/static-server";
import { median } from "../lib/stats";
import { buildSiteForTests, freePort, PROJECT_ROOT, PUBLIC_DIR } from "../lib/test-build";

/** The run's worst interaction as INP sees it (its longest Event Timing entry), if any over 16 ms. */
type Interaction = { type: string; target: string; startMs: number; durationMs: number };

type RunResult = { worst: Interaction | null; worstMs: number; keptAnswers: boolean };

/**
 * Runs in the page before any of its own scripts (Playwright's addInitScript) and keeps the worst
 * interaction in `window.__worst`. Plain JavaScript in a string: it must not depend on how this
 * file is compiled.
 */
const OBSERVE_STARTUP_SCRIPT = `(() => {
  window.__worst = null;
  const describe = (node) => {
    if (!node || !node.getAttribute) return "a node no longer in the page";
    if (node.id) return "#" + node.id;
    const [name, href] = [node.getAttribute("name"), node.getAttribute("href")];
    const what = name ? "[name=" + name + "]" : href ? "[href=" + href + "]" : "";
    return node.nodeName.toLowerCase() + what;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.interactionId || (window.__worst && window.__worst.durationMs >= entry.duration))
        continue;
      const [type, target] = [entry.name, describe(entry.target)];
      window.__worst = { type, target, startMs: entry.startTime, durationMs: entry.duration };
    }
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
})();`;

/** Lighthouse's mobile "slow 4G" as applied through DevTools (its `devtools` throttling preset). */
const SLOW_4G = {
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

/** What the visitor types, field by field (names of the form's inputs). */
const ANSWERS: ReadonlyArray<[field: string, text: string]> = [
  ["fullName", "Jordan Rivera"],
  ["organization", "Valley Metro Transit"],
  ["email", "jordan.rivera@example.org"],
  ["challenges", "We run 30 vans and want to cut empty miles."],
];
/** A quick but human typist: a key every 60 ms on top of what the page makes them wait. */
const KEY_DELAY_MS = 60;

async function runOnce(browser: Browser, url: string): Promise<RunResult> {
  const { context, page, cdp } = await phonePage(browser, CPU_SLOWDOWN);
  try {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...SLOW_4G });
    await page.addInitScript(OBSERVE_STARTUP_SCRIPT);
    await page.goto(url, { waitUntil: "commit" });
    await firstPaint(page);
    const cta = await page.locator('main a[href="#contact-form"]').first().boundingBox();
    if (!cta) throw new Error("the hero's call to action is not on the page");
    await page.touchscreen.tap(cta.x + cta.width / 2, cta.y + cta.height / 2);

    for (const [field, text] of ANSWERS) {
      await page.locator(`[name="${field}"]`).tap({ timeout: 30_000 });
      await page.keyboard.type(text, { delay: KEY_DELAY_MS });
    }
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1000);

    const kept = ANSWERS.map(async ([field, text]) => {
      return (await page.locator(`[name="${field}"]`).inputValue()) === text;
    });
    const keptAnswers = (await Promise.all(kept)).every(Boolean);
    const worst = (await page.evaluate("window.__worst")) as Interaction | null;
    return { worst, worstMs: worst?.durationMs ?? 0, keptAnswers };
  } finally {
    await context.close();
  }
}

function describeRun({ worst, keptAnswers }: RunResult): string {
  const what = worst
    ? `${Math.round(worst.durationMs)} ms, ${worst.type} on ${worst.target} at ${Math.round(worst.startMs)} ms`
    : "no interaction over 16 ms";
  return `worst ${what}${keptAnswers ? "" : "; TYPED TEXT LOST"}`;
}

async function measureRuns(
  browser: Browser,
  url: string,
  runs: number,
  label: string,
): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (let run = 1; run <= runs; run++) {
    const result = await runOnce(browser, url);
    console.log(`  ${label} run ${run}: ${describeRun(result)}`);
    results.push(result);
  }
  return results;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { runs: { type: "string" }, build: { type: "boolean", default: false } },
  });
  if (positionals.length > 1 || (values.build && positionals.length > 0))
    throw new Error("Usage: npm run bench:startup [-- --runs N] [--build | <built site folder>]");
  const runs = wholeNumberOption(values.runs, "runs", 5);
  const publicDir = positionals[0] ? path.resolve(positionals[0]) : PUBLIC_DIR;
  requireChromium();
  if (values.build) await buildSiteForTests(await freePort());

  const noScript = copyWithoutScripts(publicDir);
  const site = await startStaticServer({ root: publicDir });
  const floor = await startStaticServer({ root: noScript.dir });
  const browser = await launchChromium();
  try {
    console.log(
      `Start-up interaction on / (${path.relative(PROJECT_ROOT, publicDir) || "."}/): ${CPU_SLOWDOWN}× CPU slowdown, slow 4G, ${PHONE.viewport.width}×${PHONE.viewport.height} touch screen; ` +
        `tap the call to action at first paint, then type ${ANSWERS.length} answers (a key every ${KEY_DELAY_MS} ms); ${runs} runs each.`,
    );
    const ours = await measureRuns(browser, `${site.url}/`, runs, "our page        ");
    const bare = await measureRuns(browser, `${floor.url}/`, runs, "without scripts ");
    const oursMedian = median(ours.map((run) => run.worstMs));
    const floorMedian = median(bare.map((run) => run.worstMs));
    console.log(
      [
        "",
        `Worst interaction during start-up (Event Timing, median of ${runs}):`,
        `  our page                       ${oursMedian} ms`,
        `  our page without any script    ${floorMedian} ms`,
        `  ratio                          ${(oursMedian / floorMedian).toFixed(2)}× (goal: ≤ 1.10×)`,
      ].join("\n"),
    );
    const lost = [...ours, ...bare].filter((run) => !run.keptAnswers).length;
    if (lost > 0) {
      console.error(`\nIn ${lost} run(s) the form did not keep what the visitor typed.`);
      return 1;
    }
    return 0;
  } finally {
    await browser.close();
    await site.close();
    await floor.close();
    noScript.remove();
  }
}

runCli(main);
