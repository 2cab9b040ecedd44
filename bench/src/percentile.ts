/**
 * The `p`th percentile of `values` by nearest rank (the smallest value with at least p % of the
 * values at or below it), as HdrHistogram and pgbench's own reports read one; 0 for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}
