/** The statistics every benchmark and the audit print: medians and nearest-rank percentiles. */

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The nearest-rank percentile: the smallest value with at least `p` % of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error("percentile of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** "p50 X, p95 Y, max Z" with each value written by `format`. */
export function spread(
  values: readonly number[],
  format: (value: number) => string,
  ranks: readonly number[] = [50, 95],
): string {
  return [
    ...ranks.map((p) => `p${p} ${format(percentile(values, p))}`),
    `max ${format(percentile(values, 100))}`,
  ].join(", ");
}
