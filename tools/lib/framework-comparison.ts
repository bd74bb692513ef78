/**
 * Our page beside what it cannot go below: a bare Gatsby page built from the same node_modules
 * (tools/lib/bare-gatsby.ts) and our own page with every script removed (no-script-page.ts).
 * Lighthouse runs interleave the three pages (ours, bare, no scripts, ours, …), so a change in
 * the machine's load during the audit touches all three alike. Used by `npm run audit`.
 */
import { formatMs, medianMetrics, type RunMetrics } from "./audit-summary";
import { formatKb } from "./budgets";
import { runLighthouse, type LighthouseRun } from "./lighthouse";

export type ComparedPage = { label: string; url: string };
export type PageRuns = { label: string; runs: LighthouseRun[]; medians: RunMetrics };

export async function interleavedLighthouseRuns(
  pages: readonly ComparedPage[],
  runs: number,
  chromePath: string,
  log: (line: string) => void,
): Promise<PageRuns[]> {
  const results = pages.map(() => [] as LighthouseRun[]);
  for (let run = 1; run <= runs; run++) {
    for (const [index, page] of pages.entries()) {
      const outcome = await runLighthouse(page.url, chromePath, (line) =>
        log(`${page.label}, run ${run}: ${line}`),
      );
      results[index]!.push(outcome);
      const m = outcome.metrics;
      log(
        `${page.label}, run ${run}: performance ${m.performance}, accessibility ${m.accessibility}, best practices ${m.bestPractices}, SEO ${m.seo}; TBT ${formatMs(m.tbtMs)}, LCP ${formatMs(m.lcpMs)}`,
      );
    }
  }
  return pages.map((page, index) => ({
    label: page.label,
    runs: results[index]!,
    medians: medianMetrics(results[index]!.map((run) => run.metrics)),
  }));
}

/** Issue 14: Total Blocking Time at most this much above the bare Gatsby page's, in the same run. */
export const TBT_ABOVE_BARE_GATSBY_MS = 10;
/** LCP "at the no-JS floor": within this share of the script-free page's (Lighthouse's LCP moves a little from run to run). */
export const LCP_ABOVE_FLOOR_SHARE = 0.05;

export type FrameworkComparison = {
  ours: RunMetrics;
  bare: RunMetrics;
  noScripts: RunMetrics;
  initialJs: { oursGzipBytes: number; bareGzipBytes: number };
};

export type ComparisonLine = { name: string; measured: string; limit: string; pass: boolean };

export function compareWithFramework({
  ours,
  bare,
  noScripts,
  initialJs,
}: FrameworkComparison): ComparisonLine[] {
  const lcpFloor = noScripts.lcpMs * (1 + LCP_ABOVE_FLOOR_SHARE);
  return [
    {
      name: "Initial JS vs bare Gatsby",
      measured: formatKb(initialJs.oursGzipBytes),
      limit: `≤ ${formatKb(initialJs.bareGzipBytes)}`,
      pass: initialJs.oursGzipBytes <= initialJs.bareGzipBytes,
    },
    {
      name: "TBT vs bare Gatsby",
      measured: formatMs(ours.tbtMs),
      limit: `≤ ${formatMs(bare.tbtMs)} + ${TBT_ABOVE_BARE_GATSBY_MS} ms`,
      pass: ours.tbtMs <= bare.tbtMs + TBT_ABOVE_BARE_GATSBY_MS,
    },
    {
      name: "LCP vs no-script floor",
      measured: formatMs(ours.lcpMs),
      limit: `≤ ${formatMs(noScripts.lcpMs)} + ${LCP_ABOVE_FLOOR_SHARE * 100}%`,
      pass: ours.lcpMs <= lcpFloor,
    },
  ];
}

/** The three pages side by side: one row per figure, one column per page (medians). */
export function formatComparisonTable({
  ours,
  bare,
  noScripts,
  initialJs,
}: FrameworkComparison): string {
  const rows: Array<[string, string, string, string]> = [
    ["", "our page", "bare Gatsby page", "our page, no scripts"],
    [
      "Initial JavaScript (gzip)",
      formatKb(initialJs.oursGzipBytes),
      formatKb(initialJs.bareGzipBytes),
      "0",
    ],
    ["Total Blocking Time", formatMs(ours.tbtMs), formatMs(bare.tbtMs), formatMs(noScripts.tbtMs)],
    ["LCP", formatMs(ours.lcpMs), formatMs(bare.lcpMs), formatMs(noScripts.lcpMs)],
    ["FCP", formatMs(ours.fcpMs), formatMs(bare.fcpMs), formatMs(noScripts.fcpMs)],
    [
      "Performance score",
      String(ours.performance),
      String(bare.performance),
      String(noScripts.performance),
    ],
    [
      "Script transfer",
      formatKb(ours.scriptBytes),
      formatKb(bare.scriptBytes),
      formatKb(noScripts.scriptBytes),
    ],
  ];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
        )
        .join("  "),
    )
    .join("\n");
}
