/**
 * One Lighthouse run as `npm run audit` makes it: mobile preset, simulated throttling, the four
 * categories, each run in a fresh Chromium. Shared by the audit and the comparison with the bare
 * Gatsby page and the script-free page, so every figure comes from the same settings.
 */
import type { RunnerResult } from "lighthouse";
import { metricsFromResult, type LighthouseResultLike, type RunMetrics } from "./audit-summary";
import { CHROMIUM_FLAGS } from "./chromium";

export type LighthouseRun = { metrics: RunMetrics; result: RunnerResult };

/** Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART, NO_FCP): such a run says nothing about the page. */
const MAX_ATTEMPTS = 3;

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

/** One run, retried at most twice when Lighthouse itself fails; `log` hears about each retry. */
export async function runLighthouse(
  url: string,
  chromePath: string,
  log: (line: string) => void = () => undefined,
): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, chromePath);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS) throw error;
      log(
        `attempt ${attempt} failed (${error instanceof Error ? error.message : String(error)}); trying again`,
      );
    }
  }
}

/** Where each category below 100 loses its points, one line per category. */
export function describeLosses(result: RunnerResult): string[] {
  const { lhr } = result;
  return Object.values(lhr.categories).flatMap((category) => {
    if ((category.score ?? 0) >= 1) return [];
    const losses = category.auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${ref.id} (${lhr.audits[ref.id]?.displayValue || lhr.audits[ref.id]?.score})`);
    return losses.length > 0 ? [`${category.title} loses points on: ${losses.join(", ")}`] : [];
  });
}
