import { describe, expect, it } from 'vitest';
import { effectivePace, SendPacer } from './send-pacer.js';

describe(SendPacer.name, () => {
  it('lets a phone send at once, then spaces its next sends by the rate plus the jitter drawn', async () => {
    const clock = { now: 1_000_000 };
    const sut = new SendPacer({ perMinute: 600, jitterMs: 40 }, () => 0.5, () => clock.now);
    const started = Date.now();

    await sut.waitTurn('phone-1');
    const first = Date.now() - started;
    await sut.waitTurn('phone-1');
    const second = Date.now() - started;

    // At once: well under the 120 ms the second waits (bounds here leave a busy machine's pauses room).
    expect(first).toBeLessThan(100);
    // 60 000 / 600 = 100 ms, plus 0.5 × 40 ms of jitter.
    expect(second).toBeGreaterThanOrEqual(115);
  });

  it('paces each phone on its own', async () => {
    const sut = new SendPacer({ perMinute: 1, jitterMs: 0 });
    const started = Date.now();

    await sut.waitTurn('phone-1');
    await sut.waitTurn('phone-2');

    // Not the minute phone-1's next send waits.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('gives up the wait when told to, so a stopping worker sends nothing more', async () => {
    const sut = new SendPacer({ perMinute: 1, jitterMs: 0 });
    await sut.waitTurn('phone-1');
    const stopping = new AbortController();
    const started = Date.now();

    const turn = sut.waitTurn('phone-1', stopping.signal);
    stopping.abort();

    await expect(turn).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  /** How long the second of two sends waits. */
  async function spacing(sut: SendPacer, perMinute: number | null): Promise<number> {
    await sut.waitTurn('phone-1', undefined, perMinute);
    const started = Date.now();
    await sut.waitTurn('phone-1', undefined, perMinute);
    return Date.now() - started;
  }

  it('takes the pace smsq names for the phone when it is below the worker\'s own', async () => {
    // smsq: 300 a minute, 200 ms apart; the worker alone would allow 600, 100 ms apart.
    const waited = await spacing(new SendPacer({ perMinute: 600, jitterMs: 0 }), 300);

    expect(waited).toBeGreaterThanOrEqual(190);
  });

  it('keeps WORKER_SENDS_PER_MINUTE as the upper bound when smsq names a faster pace', async () => {
    const waited = await spacing(new SendPacer({ perMinute: 600, jitterMs: 0 }), 6_000);

    expect(waited).toBeGreaterThanOrEqual(90);
  });

  it('paces by smsq alone when the worker sets no pace of its own', async () => {
    const waited = await spacing(new SendPacer({ perMinute: 0, jitterMs: 0 }), 600);

    expect(waited).toBeGreaterThanOrEqual(90);
  });

  it('keeps its own pace, exactly as before, when smsq names none', async () => {
    expect(await spacing(new SendPacer({ perMinute: 600, jitterMs: 0 }), null)).toBeGreaterThanOrEqual(90);
    expect(await spacing(new SendPacer({ perMinute: 0, jitterMs: 0 }), null)).toBeLessThan(90);
  });

  it.each([
    [12, null, 12],
    [0, null, 0],
    [12, 5, 5],
    [12, 30, 12],
    [0, 30, 30],
  ])('paces at %i of its own and %s from smsq: %i a minute', (own, fromSmsq, pace) => {
    expect(effectivePace(own, fromSmsq)).toBe(pace);
  });

  it('does not wait at all when pacing is off', async () => {
    const sut = new SendPacer({ perMinute: 0, jitterMs: 0 });
    const started = Date.now();

    for (let send = 0; send < 100; send++) await sut.waitTurn('gateway');

    // Under 5 ms a send, on the busiest machine.
    expect(Date.now() - started).toBeLessThan(500);
  });
});
