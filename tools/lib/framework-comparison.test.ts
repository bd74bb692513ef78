import type { RunMetrics } from "./audit-summary";
import { compareWithFramework } from "./framework-comparison";

const metrics = (tbtMs: number, lcpMs: number): RunMetrics => ({
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  fcpMs: lcpMs,
  lcpMs,
  tbtMs,
  cls: 0,
  totalBytes: 100_000,
  scriptBytes: 70_000,
});

describe("compareWithFramework", () => {
  const verdicts = (ours: RunMetrics, oursGzipBytes: number) =>
    compareWithFramework({
      ours,
      bare: metrics(20, 800),
      noScripts: metrics(10, 900),
      initialJs: { oursGzipBytes, bareGzipBytes: 65_000 },
    }).map((line) => [line.name, line.pass]);

  it("passes a page no heavier than the bare Gatsby page, at most 10 ms more blocking, LCP at the script-free floor", () => {
    expect(verdicts(metrics(30, 945), 65_000)).toEqual([
      ["Initial JS vs bare Gatsby", true],
      ["TBT vs bare Gatsby", true],
      ["LCP vs no-script floor", true],
    ]);
  });

  it("fails each figure just past its limit", () => {
    expect(verdicts(metrics(31, 946), 65_001)).toEqual([
      ["Initial JS vs bare Gatsby", false],
      ["TBT vs bare Gatsby", false],
      ["LCP vs no-script floor", false],
    ]);
  });
});
