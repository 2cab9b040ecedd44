import { describe, expect, it } from 'vitest';
import { Backoff, sleep } from './backoff.js';

describe(Backoff.name, () => {
  it('doubles from the first delay up to the cap, and starts over after a reset', () => {
    const sut = new Backoff({ initialMs: 500, maxMs: 3_000 }, () => 0.5);

    expect([sut.next(), sut.next(), sut.next(), sut.next(), sut.next()]).toEqual([500, 1_000, 2_000, 3_000, 3_000]);
    sut.reset();
    expect(sut.next()).toBe(500);
  });

  it('spreads delays by at most a fifth either way', () => {
    expect(new Backoff({ initialMs: 1_000, maxMs: 30_000 }, () => 0).next()).toBe(800);
    expect(new Backoff({ initialMs: 1_000, maxMs: 30_000 }, () => 0.999_999).next()).toBe(1_200);
  });

  it('waits at least what Retry-After asks, within the cap', () => {
    const sut = new Backoff({ initialMs: 100, maxMs: 5_000 }, () => 0.5);

    expect(sut.next(2_000)).toBe(2_000);
    expect(sut.next(60_000)).toBe(5_000);
  });
});

describe(sleep.name, () => {
  it('ends early when its signal aborts', async () => {
    const stop = new AbortController();
    const startedAt = Date.now();
    const sleeping = sleep(10_000, stop.signal);

    stop.abort();
    await sleeping;

    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });
});
