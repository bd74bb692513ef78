import {
  checkBudgets,
  compareWithFramework,
  containsSupabaseJs,
  formatKb,
  formatMs,
  formatRunsTable,
  type FrameworkComparison,
  type RunMetrics,
} from "./budgets";

test.each([
  ['headers:{"X-Client-Info":"supabase-js-web/2.104.1"}', true],
  ["throw new Error('@supabase/auth-js: session missing')", true],
  ["class PostgrestQueryBuilder{}", true],
  ["// @supabase/realtime-js", true],
  // The page's own code, which only names the backend.
  ['fetch("https://abc.supabase.co/rest/v1/contacts");import("./submit-meeting-request")', false],
])("containsSupabaseJs(%s) is %s", (script, expected) => {
  expect(containsSupabaseJs(script)).toBe(expected);
});

test.each([
  [formatKb(84_787), "82.8 KB"],
  [formatKb(0), "0.0 KB"],
  [formatMs(999.4), "999 ms"],
  [formatMs(1400), "1.40 s"],
])("figures are written with their unit: %s", (written, expected) => {
  expect(written).toBe(expected);
});

const good: RunMetrics = {
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  fcpMs: 800,
  lcpMs: 1400,
  tbtMs: 20,
  cls: 0,
  totalBytes: 250 * 1024,
  scriptBytes: 95 * 1024,
};

const failing = (metrics: Partial<RunMetrics>, js: number) =>
  checkBudgets({ ...good, ...metrics }, js)
    .filter((line) => !line.pass)
    .map((line) => line.name);

test("every budget passes at its limit", () => {
  const atLimits = { lcpMs: 1500, tbtMs: 50, cls: 0.01, totalBytes: 300 * 1024 };
  expect(failing(atLimits, 110 * 1024)).toEqual([]);
});

test.each<[string, Partial<RunMetrics>, number]>([
  ["Performance", { performance: 99 }, 100 * 1024],
  ["LCP", { lcpMs: 1501 }, 100 * 1024],
  ["TBT", { tbtMs: 51 }, 100 * 1024],
  ["CLS", { cls: 0.011 }, 100 * 1024],
  ["Total transfer of /", { totalBytes: 300 * 1024 + 1 }, 100 * 1024],
  ["Initial JavaScript (gzip)", {}, 110 * 1024 + 1],
])("%s fails just past its limit", (name, metrics, js) => {
  expect(failing(metrics, js)).toEqual([name]);
});

const metrics = (tbtMs: number, lcpMs: number): RunMetrics => ({ ...good, tbtMs, lcpMs });
const compared = (ours: RunMetrics, oursGzipBytes: number): FrameworkComparison => ({
  ours,
  bare: metrics(20, 800),
  noScripts: metrics(10, 900),
  initialJs: { oursGzipBytes, bareGzipBytes: 65_000 },
});

test.each([
  [
    "passes no heavier than the bare page, 10 ms more blocking, LCP at the floor",
    30,
    945,
    65_000,
    true,
  ],
  ["fails each figure just past its limit", 31, 946, 65_001, false],
])("against the framework: %s", (_, tbt, lcp, js, pass) => {
  expect(
    compareWithFramework(compared(metrics(tbt, lcp), js)).map((l) => [l.name, l.pass]),
  ).toEqual([
    ["Initial JS vs bare Gatsby", pass],
    ["TBT vs bare Gatsby", pass],
    ["LCP vs no-script floor", pass],
  ]);
});

test("the runs table has a column per run and the median", () => {
  const runsTable = formatRunsTable([good, good, good], good);
  expect(runsTable.split("\n")[0]).toMatch(/run 1\s+run 2\s+run 3\s+median$/);
  expect(runsTable).toMatch(/^LCP\s+1\.40 s\s+1\.40 s\s+1\.40 s\s+1\.40 s$/m);
});
