import {
  checkBudgets,
  formatRunsTable,
  median,
  medianMetrics,
  metricsFromResult,
  type LighthouseResultLike,
  type RunMetrics,
} from "./audit-summary";

function lhr(overrides: Partial<Record<string, number>> = {}): LighthouseResultLike {
  return {
    categories: {
      performance: { score: overrides.performance ?? 0.99 },
      accessibility: { score: 1 },
      "best-practices": { score: 1 },
      seo: { score: 1 },
    },
    audits: {
      "first-contentful-paint": { numericValue: overrides.fcp ?? 900 },
      "largest-contentful-paint": { numericValue: overrides.lcp ?? 1200 },
      "total-blocking-time": { numericValue: 10 },
      "cumulative-layout-shift": { numericValue: 0 },
      "total-byte-weight": { numericValue: 200_000 },
      "resource-summary": {
        details: {
          items: [
            { resourceType: "total", transferSize: 200_000 },
            { resourceType: "script", transferSize: 90_000 },
          ],
        },
      },
    },
  };
}

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

describe("audit summary", () => {
  test("reads scores as 0–100 and the metrics, script bytes from the resource summary", () => {
    expect(metricsFromResult(lhr())).toEqual({
      performance: 99,
      accessibility: 100,
      bestPractices: 100,
      seo: 100,
      fcpMs: 900,
      lcpMs: 1200,
      tbtMs: 10,
      cls: 0,
      totalBytes: 200_000,
      scriptBytes: 90_000,
    });
  });

  test("a run Lighthouse could not complete is an error, not a zero", () => {
    expect(() =>
      metricsFromResult({ ...lhr(), runtimeError: { code: "NO_FCP", message: "no paint" } }),
    ).toThrow(/NO_FCP/);
    expect(() =>
      metricsFromResult({ ...lhr(), categories: { performance: { score: null } } }),
    ).toThrow(/performance/);
  });

  test("median: odd and even counts, unsorted input", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });

  test("medians are taken per metric", () => {
    const runs = [
      lhr({ lcp: 1000, fcp: 700 }),
      lhr({ lcp: 3000, fcp: 900 }),
      lhr({ lcp: 1100, fcp: 800, performance: 0.9 }),
    ].map(metricsFromResult);
    const medians = medianMetrics(runs);
    expect(medians.lcpMs).toBe(1100);
    expect(medians.fcpMs).toBe(800);
    expect(medians.performance).toBe(99);
  });

  test("budgets: all pass at the limits, each fails just past its limit", () => {
    const atLimits: RunMetrics = {
      ...good,
      lcpMs: 1500,
      tbtMs: 50,
      cls: 0.01,
      totalBytes: 300 * 1024,
    };
    expect(checkBudgets(atLimits, 110 * 1024).every((line) => line.pass)).toBe(true);
    const failing = (metrics: Partial<RunMetrics>, js = 100 * 1024) =>
      checkBudgets({ ...good, ...metrics }, js)
        .filter((line) => !line.pass)
        .map((line) => line.name);
    expect(failing({ performance: 99 })).toEqual(["Performance"]);
    expect(failing({ lcpMs: 1501 })).toEqual(["LCP"]);
    expect(failing({ tbtMs: 51 })).toEqual(["TBT"]);
    expect(failing({ cls: 0.011 })).toEqual(["CLS"]);
    expect(failing({ totalBytes: 300 * 1024 + 1 })).toEqual(["Total transfer of /"]);
    expect(failing({}, 110 * 1024 + 1)).toEqual(["Initial JavaScript (gzip)"]);
  });

  test("the table has a column per run and the median", () => {
    const table = formatRunsTable([good, good, good], good);
    expect(table.split("\n")[0]).toMatch(/run 1\s+run 2\s+run 3\s+median$/);
    expect(table).toMatch(/^LCP\s+1\.40 s\s+1\.40 s\s+1\.40 s\s+1\.40 s$/m);
  });
});
