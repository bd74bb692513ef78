/**
 * `npm run bench:startup`: how responsive `/` is while it starts, for a visitor on a slow phone
 * who does not wait for it.
 *
 * Each run opens `/` in a fresh browser context with a mobile screen, the CPU slowed 4× and
 * Lighthouse's slow-4G network (562.5 ms round trip, 1.47 Mbit/s down) through the DevTools
 * protocol. As soon as the first paint is recorded the visitor taps the hero's call to action,
 * then taps into the form and types their name, organisation, e-mail and a question while the
 * scripts load and hydrate. The browser's Event Timing entries (what INP is computed from) give
 * each interaction's duration, from input to the next paint; a run's figure is its worst one.
 *
 * The same runs are made on a copy of the page with every script removed (the floor: what the
 * HTML and CSS alone cost), and the medians are printed side by side. The run fails (exit 1) only
 * when what the visitor typed is not in the form at the end. Reads the build in public/, or the
 * built site folder given (`--build` builds public/ first, as the e2e tests do).
 *
 * Usage: npm run bench:startup [-- --runs N (default 5)] [--build] [<built site folder>]
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium as playwrightChromium, type Browser } from "playwright-core";
import { median } from "../lib/audit-summary";
import { CHROMIUM_FLAGS, requireChromium } from "../lib/chromium";
import { runCli, wholeNumberOption } from "../lib/cli";
import { copyWithoutScripts } from "../lib/no-script-page";
import { startStaticServer } from "../lib/static-server";
import { buildSiteForTests, freePort, PROJECT_ROOT, PUBLIC_DIR } from "../lib/test-build";
import { OBSERVE_STARTUP_SCRIPT, type StartupObservations } from "./startup-observer";

/** Lighthouse's mobile "slow 4G" as applied through DevTools (its `devtools` throttling preset). */
const SLOW_4G = {
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

/** What the visitor types, field by field (names of the form's inputs). */
const ANSWERS: ReadonlyArray<[field: string, text: string]> = [
  ["fullName", "Jordan Rivera"],
  ["organization", "Valley Metro Transit"],
  ["email", "jordan.rivera@example.org"],
  ["challenges", "We run 30 vans and want to cut empty miles."],
];
/** A quick but human typist: a key every 60 ms on top of what the page makes them wait. */
const KEY_DELAY_MS = 60;

export type RunResult = StartupObservations & { worstMs: number; keptAnswers: boolean };

async function runOnce(browser: Browser, url: string): Promise<RunResult> {
  const context = await browser.newContext({ ...MOBILE });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...SLOW_4G });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await page.addInitScript(OBSERVE_STARTUP_SCRIPT);

    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(
      () => performance.getEntriesByName("first-contentful-paint").length > 0,
      null,
      { polling: 10, timeout: 60_000 },
    );
    const cta = await page.locator('main a[href="#contact-form"]').first().boundingBox();
    if (!cta) throw new Error("the hero's call to action is not on the page");
    await page.touchscreen.tap(cta.x + cta.width / 2, cta.y + cta.height / 2);

    for (const [field, text] of ANSWERS) {
      await page.locator(`[name="${field}"]`).tap({ timeout: 30_000 });
      await page.keyboard.type(text, { delay: KEY_DELAY_MS });
    }
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1000);

    let keptAnswers = true;
    for (const [field, text] of ANSWERS) {
      if ((await page.locator(`[name="${field}"]`).inputValue()) !== text) keptAnswers = false;
    }
    const observations = (await page.evaluate("window.__startup")) as StartupObservations;
    const worstMs = Math.max(
      0,
      ...observations.interactions.map((interaction) => interaction.durationMs),
    );
    return { ...observations, worstMs, keptAnswers };
  } finally {
    await context.close();
  }
}

function describeRun(run: RunResult): string {
  const worst = run.interactions.reduce<RunResult["interactions"][number] | undefined>(
    (a, b) => (!a || b.durationMs > a.durationMs ? b : a),
    undefined,
  );
  const what = worst
    ? `${worst.type} on ${worst.target} at ${Math.round(worst.startMs)} ms: input delay ${Math.round(worst.inputDelayMs)} ms, handlers ${Math.round(worst.processingMs)} ms`
    : "no interaction over 16 ms";
  const hydrated =
    run.formReadyMs === null
      ? "form never hydrated"
      : `form ready at ${Math.round(run.formReadyMs)} ms`;
  return `worst ${String(run.worstMs).padStart(4)} ms (${what}); ${run.interactions.length} interactions over 16 ms; first paint ${Math.round(run.firstPaintMs ?? 0)} ms; ${hydrated}; long tasks ${run.longTasks.length} (longest ${Math.round(Math.max(0, ...run.longTasks.map((task) => task.durationMs)))} ms)${run.keptAnswers ? "" : "; TYPED TEXT LOST"}`;
}

export async function measureStartupInteraction(
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
  const chromium = requireChromium();
  if (values.build) await buildSiteForTests(await freePort());

  const noScript = copyWithoutScripts(publicDir);
  const site = await startStaticServer({ root: publicDir });
  const floor = await startStaticServer({ root: noScript.dir });
  const browser = await playwrightChromium.launch({
    executablePath: chromium.executablePath,
    args: [...CHROMIUM_FLAGS],
  });
  try {
    console.log(
      `Start-up interaction on / (${path.relative(PROJECT_ROOT, publicDir) || "."}/): ${CPU_SLOWDOWN}× CPU slowdown, slow 4G, ${MOBILE.viewport.width}×${MOBILE.viewport.height} touch screen; ` +
        `tap the call to action at first paint, then type ${ANSWERS.length} answers (a key every ${KEY_DELAY_MS} ms); ${runs} runs each.`,
    );
    const ours = await measureStartupInteraction(browser, `${site.url}/`, runs, "our page        ");
    const bare = await measureStartupInteraction(
      browser,
      `${floor.url}/`,
      runs,
      "without scripts ",
    );
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

if (require.main === module) runCli(main);
