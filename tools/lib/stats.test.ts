import { median, percentile, spread } from "./stats";

test.each([
  [[3, 1, 2], 2],
  [[4, 1, 3, 2], 2.5],
  [[7], 7],
])("the median of %j is %d", (values, expected) => {
  expect(median(values)).toBe(expected);
});

test.each([
  [50, 5],
  [90, 9],
  [95, 10],
  [100, 10],
  [1, 1],
])("the nearest-rank p%d of 1…10, unsorted, is %d", (p, expected) => {
  expect(percentile([10, 9, 8, 7, 6, 5, 4, 3, 2, 1], p)).toBe(expected);
});

test("nothing has no median or percentile; a spread names its ranks and the maximum", () => {
  expect(() => median([])).toThrow();
  expect(() => percentile([], 50)).toThrow();
  expect(spread([1, 2, 3, 4], (n) => `${n} ms`)).toBe("p50 2 ms, p95 4 ms, max 4 ms");
});
