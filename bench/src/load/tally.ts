import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks';
import type { LatencySummary, LoadResult } from './load-plan.js';

/** The requests of one load run: their latencies, and the failed ones by outcome. */
export class Tally {
  readonly histogram: RecordableHistogram = createHistogram();
  requests = 0;
  errors = 0;
  readonly errorsByStatus: Record<string, number> = {};

  /** `outcome`: an HTTP status or SMPP command_status, or what stood for an answer (`network`, `timeout`). */
  record(startedAt: number, outcome: number | string, expected: number): void {
    this.requests += 1;
    this.histogram.record(Math.max(1, Math.round((performance.now() - startedAt) * 1_000_000)));
    if (outcome !== expected) {
      this.errors += 1;
      this.errorsByStatus[String(outcome)] = (this.errorsByStatus[String(outcome)] ?? 0) + 1;
    }
  }
}

export function summarise(histogram: RecordableHistogram): LatencySummary {
  const ms = (ns: number) => Math.round(ns / 10_000) / 100;
  return {
    count: histogram.count,
    p50Ms: ms(histogram.percentile(50)),
    p90Ms: ms(histogram.percentile(90)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(histogram.max),
    meanMs: ms(Number.isNaN(histogram.mean) ? 0 : histogram.mean),
  };
}

export function resultOf(tally: Tally, elapsedMs: number): LoadResult {
  return {
    requests: tally.requests,
    errors: tally.errors,
    errorsByStatus: tally.errorsByStatus,
    elapsedMs: Math.round(elapsedMs),
    perSecond: Math.round((tally.requests / elapsedMs) * 1000 * 10) / 10,
    latency: summarise(tally.histogram),
  };
}
