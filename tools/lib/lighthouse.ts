/**
 * Lighthouse as `npm run audit` runs it: mobile preset, simulated throttling, the four categories,
 * each run in a fresh Chromium; the figures it reads from a run and their medians. Runs over
 * several pages interleave (ours, the bare Gatsby page, ours without scripts, ours, …), so a
 * change in the machine's load during the audit touches every page alike.
 */
import type { RunnerResult } from "lighthouse";

import { formatMs, type RunMetrics } from "./budgets";
import { CHROMIUM_FLAGS } from "./chromium";
import { median } from "./stats";

/** The part of a Lighthouse result (LHR) read here. */
export type LighthouseResultLike = {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: Array<Record<string, unknown>> } } | undefined
  >;
  runtimeError?: { code: string; message: string };
};

export function metricsFromResult(lhr: LighthouseResultLike): RunMetrics {
  if (lhr.runtimeError)
    throw new Error(
      `Lighthouse could not audit the page: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
    );
  const score = (id: string) => {
    const value = lhr.categories[id]?.score;
    if (typeof value !== "number") throw new Error(`Lighthouse returned no ${id} score`);
    return Math.round(value * 100);
  };
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== "number") throw new Error(`Lighthouse returned no value for ${id}`);
    return value;
  };
  const items = lhr.audits["resource-summary"]?.details?.items ?? [];
  const scripts = items.find((item) => item.resourceType === "script")?.transferSize;
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    fcpMs: numeric("first-contentful-paint"),
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    totalBytes: numeric("total-byte-weight"),
    scriptBytes: typeof scripts === "number" ? scripts : 0,
  };
}

/** The median of every metric on its own (as Lighthouse CI does), not the "median run". */
export function medianMetrics(runs: readonly RunMetrics[]): RunMetrics {
  if (runs.length === 0) throw new Error("no runs");
  const keys = Object.keys(runs[0]!) as Array<keyof RunMetrics>;
  return Object.fromEntries(
    keys.map((key) => [key, median(runs.map((run) => run[key]))]),
  ) as RunMetrics;
}

export type LighthouseRun = { metrics: RunMetrics; result: RunnerResult };

async function lighthouseOnce(url: string, chromePath: string): Promise<LighthouseRun> {
  const { default: lighthouse } = await import("lighthouse");
  const { launch } = await import("chrome-launcher");
  const chrome = await launch({ chromePath, chromeFlags: [...CHROMIUM_FLAGS], logLevel: "silent" });
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
}

/**
 * One run, tried up to 3 times: Lighthouse sometimes fails to record a trace on a busy machine
 * (NO_NAVSTART, NO_FCP), and such a run says nothing about the page.
 */
async function runLighthouse(url: string, chromePath: string, log: (line: string) => void) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, chromePath);
    } catch (error) {
      if (attempt >= 3) throw error;
      log(`attempt ${attempt} failed (${(error as Error).message}); trying again`);
    }
  }
}

export type PageRuns = { label: string; runs: LighthouseRun[]; medians: RunMetrics };

/** `runs` rounds over `pages`, one Lighthouse run of each page per round; a line per run. */
export async function interleavedLighthouseRuns(
  pages: ReadonlyArray<{ label: string; url: string }>,
  runs: number,
  chromePath: string,
  log: (line: string) => void,
): Promise<PageRuns[]> {
  const results = pages.map(() => [] as LighthouseRun[]);
  for (let run = 1; run <= runs; run++) {
    for (const [index, page] of pages.entries()) {
      const say = (line: string) => log(`${page.label}, run ${run}: ${line}`);
      const { metrics: m, result } = await runLighthouse(page.url, chromePath, say);
      results[index]!.push({ metrics: m, result });
      say(
        `performance ${m.performance}, accessibility ${m.accessibility}, best practices ${m.bestPractices}, SEO ${m.seo}; TBT ${formatMs(m.tbtMs)}, LCP ${formatMs(m.lcpMs)}`,
      );
    }
  }
  return pages.map(({ label }, index) => ({
    label,
    runs: results[index]!,
    medians: medianMetrics(results[index]!.map((run) => run.metrics)),
  }));
}

/** Where each category below 100 loses its points, one line per category. */
export function describeLosses({ lhr }: RunnerResult): string[] {
  return Object.values(lhr.categories).flatMap((category) => {
    if ((category.score ?? 0) >= 1) return [];
    const losses = category.auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${ref.id} (${lhr.audits[ref.id]?.displayValue || lhr.audits[ref.id]?.score})`);
    return losses.length > 0 ? [`${category.title} loses points on: ${losses.join(", ")}`] : [];
  });
}
