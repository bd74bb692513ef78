/**
 * What `npm run audit` reads from each Lighthouse run, the medians over the runs, and the
 * budgets of issue 4 they are held to. Pure functions: tested in audit-summary.test.ts.
 */
import { FIRST_LOAD_BUDGET_BYTES, formatKb, INITIAL_JS_BUDGET_GZIP_BYTES } from "./budgets";

export type RunMetrics = {
  /** Category scores, 0–100. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Milliseconds (simulated mobile throttling). */
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Bytes over the wire for the whole page load, and for scripts alone. */
  totalBytes: number;
  scriptBytes: number;
};

/** The subset of a Lighthouse result (LHR) this file reads. */
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
  const scriptRow = items.find((item) => item.resourceType === "script");
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
    scriptBytes: typeof scriptRow?.transferSize === "number" ? scriptRow.transferSize : 0,
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of every metric on its own (as Lighthouse CI does), not the "median run". */
export function medianMetrics(runs: readonly RunMetrics[]): RunMetrics {
  const keys = Object.keys(runs[0] ?? {}) as Array<keyof RunMetrics>;
  if (keys.length === 0) throw new Error("no runs");
  return Object.fromEntries(
    keys.map((key) => [key, median(runs.map((run) => run[key]))]),
  ) as RunMetrics;
}

export type BudgetLine = { name: string; measured: string; limit: string; pass: boolean };

/** Issue 4's budgets. The byte figures come from a first load in the browser (tools/lib/transfer.ts). */
export function checkBudgets(medians: RunMetrics, initialJsGzipBytes: number): BudgetLine[] {
  const atLeast = (
    name: string,
    value: number,
    limit: number,
    format: (n: number) => string,
  ): BudgetLine => ({
    name,
    measured: format(value),
    limit: `≥ ${format(limit)}`,
    pass: value >= limit,
  });
  const atMost = (
    name: string,
    value: number,
    limit: number,
    format: (n: number) => string,
  ): BudgetLine => ({
    name,
    measured: format(value),
    limit: `≤ ${format(limit)}`,
    pass: value <= limit,
  });
  const score = (n: number) => String(Math.round(n));
  return [
    atLeast("Performance", medians.performance, 100, score),
    atLeast("Accessibility", medians.accessibility, 100, score),
    atLeast("Best practices", medians.bestPractices, 100, score),
    atLeast("SEO", medians.seo, 100, score),
    atMost("LCP", medians.lcpMs, 1500, formatMs),
    atMost("TBT", medians.tbtMs, 50, formatMs),
    atMost("CLS", medians.cls, 0.01, formatCls),
    atMost("Total transfer of /", medians.totalBytes, FIRST_LOAD_BUDGET_BYTES, formatKb),
    atMost("Initial JavaScript (gzip)", initialJsGzipBytes, INITIAL_JS_BUDGET_GZIP_BYTES, formatKb),
  ];
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

export function formatCls(cls: number): string {
  return cls.toFixed(3);
}

/** A fixed-width table: one row per metric, one column per run, then the median. */
export function formatRunsTable(runs: readonly RunMetrics[], medians: RunMetrics): string {
  const rows: Array<[string, (m: RunMetrics) => string]> = [
    ["Performance", (m) => String(m.performance)],
    ["Accessibility", (m) => String(m.accessibility)],
    ["Best practices", (m) => String(m.bestPractices)],
    ["SEO", (m) => String(m.seo)],
    ["FCP", (m) => formatMs(m.fcpMs)],
    ["LCP", (m) => formatMs(m.lcpMs)],
    ["TBT", (m) => formatMs(m.tbtMs)],
    ["CLS", (m) => formatCls(m.cls)],
    ["Total transfer", (m) => formatKb(m.totalBytes)],
    ["Script transfer", (m) => formatKb(m.scriptBytes)],
  ];
  const header = ["", ...runs.map((_, index) => `run ${index + 1}`), "median"];
  const body = rows.map(([name, format]) => [name, ...runs.map(format), format(medians)]);
  const widths = header.map((_, column) =>
    Math.max(...[header, ...body].map((row) => row[column]!.length)),
  );
  return [header, ...body]
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
        )
        .join("  "),
    )
    .join("\n");
}
