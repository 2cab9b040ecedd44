/** One HTTP request the load generator sends; `body` is sent as JSON. */
export interface PlannedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * What one load run does. `closed`: `connections` loops each send the next request as soon as the
 * last one answered (full speed). `open`: requests start at a fixed `ratePerS` whatever the answers
 * do, on at most `connections` sockets, and latency counts from the planned start so a stall is not
 * hidden (coordinated omission).
 */
export type LoadPlan =
  | { kind: 'create-tasks'; mode: 'closed'; baseUrl: string; connections: number; durationMs: number; apiKeys: string[] }
  | { kind: 'create-tasks'; mode: 'open'; baseUrl: string; connections: number; durationMs: number; apiKeys: string[]; ratePerS: number }
  | { kind: 'deliver'; baseUrl: string; workers: number; workerTokens: string[]; expectedTasks: number; timeoutMs: number };

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Status code (or `network`) of the failed requests and how many. */
  errorsByStatus: Record<string, number>;
  elapsedMs: number;
  perSecond: number;
  latency: LatencySummary;
  /** Deliver only: tasks claimed and reported sent, and ids claimed more than once. */
  delivered?: number;
  doubleClaims?: number;
  /** Deliver only: latency of the claim request alone. */
  claimLatency?: LatencySummary;
}

/** A create-task body; recipients vary so the work is not one cached answer repeated. */
export function createTaskBody(sequence: number): { recipient: string; message: string } {
  return { recipient: `+38164${String(1_000_000 + (sequence % 8_999_999)).padStart(7, '0')}`, message: `bench message ${sequence}` };
}
