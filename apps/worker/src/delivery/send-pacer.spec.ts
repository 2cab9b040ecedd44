import { describe, expect, it } from 'vitest';
import { SendPacer } from './send-pacer.js';

describe(SendPacer.name, () => {
  it('lets a phone send at once, then spaces its next sends by the rate plus the jitter drawn', async () => {
    const clock = { now: 1_000_000 };
    const sut = new SendPacer({ perMinute: 600, jitterMs: 40 }, () => 0.5, () => clock.now);
    const started = Date.now();

    await sut.waitTurn('phone-1');
    const first = Date.now() - started;
    await sut.waitTurn('phone-1');
    const second = Date.now() - started;

    expect(first).toBeLessThan(50);
    // 60 000 / 600 = 100 ms, plus 0.5 × 40 ms of jitter.
    expect(second).toBeGreaterThanOrEqual(115);
  });

  it('paces each phone on its own', async () => {
    const sut = new SendPacer({ perMinute: 1, jitterMs: 0 });
    const started = Date.now();

    await sut.waitTurn('phone-1');
    await sut.waitTurn('phone-2');

    expect(Date.now() - started).toBeLessThan(50);
  });

  it('gives up the wait when told to, so a stopping worker sends nothing more', async () => {
    const sut = new SendPacer({ perMinute: 1, jitterMs: 0 });
    await sut.waitTurn('phone-1');
    const stopping = new AbortController();
    const started = Date.now();

    const turn = sut.waitTurn('phone-1', stopping.signal);
    stopping.abort();

    await expect(turn).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(50);
  });

  it('does not wait at all when pacing is off', async () => {
    const sut = new SendPacer({ perMinute: 0, jitterMs: 0 });
    const started = Date.now();

    for (let send = 0; send < 100; send++) await sut.waitTurn('gateway');

    expect(Date.now() - started).toBeLessThan(50);
  });
});
