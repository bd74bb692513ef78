/**
 * The budgets of `/` and how their figures are written: the byte budgets (`npm run size`, the e2e
 * budget test), how we tell that supabase-js is in a script, and what `npm run audit` holds its
 * Lighthouse medians to: the budgets, which fail it, and the targets against the framework (a bare
 * Gatsby page, our page without scripts), reported only; and its tables.
 */

/** What `npm run audit` reads from a Lighthouse run (tools/lib/lighthouse.ts). */
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

export const KB = 1024;

/** JavaScript a visitor downloads before interacting with `/`, gzip. */
export const INITIAL_JS_BUDGET_GZIP_BYTES = 110 * KB;

/** What the built page starts before any interaction: catches React or the form slipping in. */
export const START_UP_JS_BUDGET_GZIP_BYTES = 5 * KB;

/** Everything that goes over the wire for a first visit of `/` (bodies as served, plus headers). */
export const FIRST_LOAD_BUDGET_BYTES = 300 * KB;

export function formatKb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** Text only the supabase-js bundle holds, minified or not. */
const SUPABASE_JS_MARKER =
  /supabase-js[-:]|@supabase\/(auth|postgrest|realtime|storage)-js|PostgrestQueryBuilder/;

/** Whether this script is (or holds) supabase-js, which must load only once the visitor nears the form. */
export function containsSupabaseJs(script: string): boolean {
  return SUPABASE_JS_MARKER.test(script);
}

export type Check = { name: string; measured: string; limit: string; pass: boolean };

function atMost(
  name: string,
  value: number,
  limit: number,
  format: (n: number) => string,
  limitText = `≤ ${format(limit)}`,
): Check {
  return { name, measured: format(value), limit: limitText, pass: value <= limit };
}

const formatCls = (cls: number) => cls.toFixed(3);

/** The budgets. The byte figures come from a first load in the browser (tools/lib/transfer.ts). */
export function checkBudgets(medians: RunMetrics, initialJsGzipBytes: number): Check[] {
  const scores = [
    ["Performance", medians.performance],
    ["Accessibility", medians.accessibility],
    ["Best practices", medians.bestPractices],
    ["SEO", medians.seo],
  ] as const;
  return [
    ...scores.map(([name, score]) => ({
      name,
      measured: String(Math.round(score)),
      limit: "≥ 100",
      pass: score >= 100,
    })),
    atMost("LCP", medians.lcpMs, 1500, formatMs),
    atMost("TBT", medians.tbtMs, 50, formatMs),
    atMost("CLS", medians.cls, 0.01, formatCls),
    atMost("Total transfer of /", medians.totalBytes, FIRST_LOAD_BUDGET_BYTES, formatKb),
    atMost("Initial JavaScript (gzip)", initialJsGzipBytes, INITIAL_JS_BUDGET_GZIP_BYTES, formatKb),
  ];
}

/** Total Blocking Time at most this much above the bare Gatsby page's, in the same runs. */
const TBT_ABOVE_BARE_GATSBY_MS = 10;
/** LCP "at the no-script floor": within this share of the script-free page's (it moves a little run to run). */
const LCP_ABOVE_FLOOR_SHARE = 0.05;

export type FrameworkComparison = {
  ours: RunMetrics;
  bare: RunMetrics;
  noScripts: RunMetrics;
  initialJs: { oursGzipBytes: number; bareGzipBytes: number };
};

export function compareWithFramework(pages: FrameworkComparison): Check[] {
  const { ours, bare, noScripts, initialJs } = pages;
  return [
    atMost("Initial JS vs bare Gatsby", initialJs.oursGzipBytes, initialJs.bareGzipBytes, formatKb),
    atMost(
      "TBT vs bare Gatsby",
      ours.tbtMs,
      bare.tbtMs + TBT_ABOVE_BARE_GATSBY_MS,
      formatMs,
      `≤ ${formatMs(bare.tbtMs)} + ${TBT_ABOVE_BARE_GATSBY_MS} ms`,
    ),
    atMost(
      "LCP vs no-script floor",
      ours.lcpMs,
      noScripts.lcpMs * (1 + LCP_ABOVE_FLOOR_SHARE),
      formatMs,
      `≤ ${formatMs(noScripts.lcpMs)} + ${LCP_ABOVE_FLOOR_SHARE * 100}%`,
    ),
  ];
}

/** Rows of cells as a fixed-width table: the first column to the left, the others to the right. */
export function table(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!),
        )
        .join("  "),
    )
    .join("\n");
}

const FIGURES: Array<[string, (m: RunMetrics) => string]> = [
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

/** One row per figure, one column per run, then the median. */
export function formatRunsTable(runs: readonly RunMetrics[], medians: RunMetrics): string {
  return table([
    ["", ...runs.map((_, index) => `run ${index + 1}`), "median"],
    ...FIGURES.map(([name, format]) => [name, ...runs.map(format), format(medians)]),
  ]);
}

/** The three pages side by side, medians. */
export function formatComparisonTable({ ours, bare, noScripts, initialJs }: FrameworkComparison) {
  const pages = [ours, bare, noScripts];
  const row = (name: string, format: (m: RunMetrics) => string) => [name, ...pages.map(format)];
  return table([
    ["", "our page", "bare Gatsby page", "our page, no scripts"],
    [
      "Initial JavaScript (gzip)",
      ...[initialJs.oursGzipBytes, initialJs.bareGzipBytes].map(formatKb),
      "0",
    ],
    row("Total Blocking Time", (m) => formatMs(m.tbtMs)),
    row("LCP", (m) => formatMs(m.lcpMs)),
    row("FCP", (m) => formatMs(m.fcpMs)),
    row("Performance score", (m) => String(m.performance)),
    row("Script transfer", (m) => formatKb(m.scriptBytes)),
  ]);
}
