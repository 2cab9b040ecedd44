import type { BackoffRange } from '../config/worker-config.js';

/**
 * Capped exponential backoff with a little jitter (±20 %), so workers that lost smsq together do
 * not all come back in the same instant. A `Retry-After` from the server is honoured up to the cap.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly range: BackoffRange,
    private readonly random: () => number = Math.random,
  ) {}

  next(retryAfterMs?: number): number {
    const base = Math.min(this.range.maxMs, this.range.initialMs * 2 ** this.failures);
    this.failures = Math.min(this.failures + 1, 30);
    const jittered = Math.round(base * (0.8 + 0.4 * this.random()));
    return Math.min(this.range.maxMs, Math.max(jittered, retryAfterMs ?? 0));
  }

  reset(): void {
    this.failures = 0;
  }
}

/** Waits `ms`, or less when `signal` aborts; never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
