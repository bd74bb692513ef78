import { medianMetrics, metricsFromResult, type LighthouseResultLike } from "./lighthouse";

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

test.each([
  ["a runtime error", { runtimeError: { code: "NO_FCP", message: "no paint" } }, /NO_FCP/],
  ["a missing score", { categories: { performance: { score: null } } }, /performance/],
])("a run Lighthouse could not complete (%s) is an error, not a zero", (_, change, error) => {
  expect(() => metricsFromResult({ ...lhr(), ...change })).toThrow(error);
});

test("medians are taken per metric", () => {
  const runs = [
    lhr({ lcp: 1000, fcp: 700 }),
    lhr({ lcp: 3000, fcp: 900 }),
    lhr({ lcp: 1100, fcp: 800, performance: 0.9 }),
  ].map(metricsFromResult);
  expect(medianMetrics(runs)).toMatchObject({ lcpMs: 1100, fcpMs: 800, performance: 99 });
});
