import { describe, expect, it } from 'vitest';
import { effectiveJitterMs, effectivePace, SendPacer, type TurnRequest } from './send-pacer.js';

/** A clock that moves only when the pacer waits, and every wait it was asked for. */
function fakeTime(start = 1_000_000) {
  const time = { now: start, waits: [] as number[] };
  const wait = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return;
    time.waits.push(ms);
    time.now += Math.max(0, ms);
  };
  return { time, now: () => time.now, wait };
}

/** A random source answering the given draws in turn, then the last one again. */
function draws(...values: number[]): () => number {
  let next = 0;
  return () => values[Math.min(next++, values.length - 1)]!;
}

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

    await expect(turn).resolves.toBe('stopped');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  /** How long the second of two sends waits. */
  async function spacing(sut: SendPacer, perMinute: number | null): Promise<number> {
    await sut.waitTurn('phone-1', undefined, { perMinute });
    const started = Date.now();
    await sut.waitTurn('phone-1', undefined, { perMinute });
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

  /** The waits of consecutive sends of one phone, on a clock that moves only while the pacer waits. */
  async function waitsFor(pacing: { perMinute: number; jitterMs: number }, random: () => number, tasks: TurnRequest[]): Promise<number[]> {
    const { time, now, wait } = fakeTime();
    const sut = new SendPacer(pacing, random, now, wait);
    const waits: number[] = [];
    for (const task of tasks) {
      const before = time.now;
      expect(await sut.waitTurn('phone-1', undefined, task)).toBe('go');
      waits.push(time.now - before);
    }
    return waits;
  }

  it('counts SMS parts, not tasks: a 3-part message uses three of the minute\'s slots', async () => {
    // 60 a minute: a part every second. The 3-part message holds the phone for three, the 1-part ones for one.
    expect(await waitsFor({ perMinute: 60, jitterMs: 0 }, () => 0, [{ parts: 3 }, { parts: 1 }, { parts: 1 }, {}])).toEqual([0, 3_000, 1_000, 1_000]);
    // smsq's pace counts parts the same way.
    expect(await waitsFor({ perMinute: 0, jitterMs: 0 }, () => 0, [{ perMinute: 30, parts: 2 }, { perMinute: 30, parts: 2 }])).toEqual([0, 4_000]);
  });

  it('keeps a 1-part message\'s spacing exactly as before: the pace plus the jitter drawn', async () => {
    expect(await waitsFor({ perMinute: 12, jitterMs: 2_000 }, draws(0.5, 0.25), [{}, { parts: 1 }, {}])).toEqual([0, 5_000 + 1_000, 5_000 + 500]);
  });

  it('draws the jitter uniformly between 0 and smsq\'s jitter for the phone, which replaces the worker\'s own', async () => {
    // Own jitter 2 s; smsq's 10 s: draws of 0, 0.5 and just under 1 give 0, 5 and just under 10 s on top of the 5 s pace.
    const tasks = Array.from({ length: 4 }, () => ({ jitterS: 10 }));
    expect(await waitsFor({ perMinute: 12, jitterMs: 2_000 }, draws(0, 0.5, 0.9999), tasks)).toEqual([0, 5_000, 10_000, 5_000 + 9_999]);
  });

  it('adds smsq\'s jitter to an unpaced phone, and turns the worker\'s own off when smsq says 0', async () => {
    expect(await waitsFor({ perMinute: 0, jitterMs: 0 }, () => 0.25, [{ jitterS: 4 }, { jitterS: 4 }, { jitterS: 4 }])).toEqual([0, 1_000, 1_000]);
    expect(await waitsFor({ perMinute: 12, jitterMs: 2_000 }, () => 0.5, [{ jitterS: 0 }, { jitterS: 0 }])).toEqual([0, 5_000]);
  });

  it.each([
    [2_000, 12, null, 2_000],
    [2_000, 0, null, 0],
    [2_000, 12, 30, 30_000],
    [2_000, 0, 30, 30_000],
    [2_000, 12, 0, 0],
  ])('jitters up to %i ms of its own at a pace of %i and %s s from smsq: %i ms', (own, pace, fromSmsq, jitterMs) => {
    expect(effectiveJitterMs(own, pace, fromSmsq)).toBe(jitterMs);
  });

  it('answers lapsed, waiting for nothing and booking nothing, when the turn would come after the claim lapses', async () => {
    const { time, now, wait } = fakeTime();
    const sut = new SendPacer({ perMinute: 12, jitterMs: 0 }, () => 0.5, now, wait);
    expect(await sut.waitTurn('phone-1', undefined, { jitterS: 20 })).toBe('go');

    // The next turn is 5 s + 10 s of jitter away: a claim lapsing in 14 s cannot have it.
    await expect(sut.waitTurn('phone-1', undefined, { jitterS: 20, deadline: time.now + 14_000 })).resolves.toBe('lapsed');
    expect(time.waits).toEqual([0]);
    // Nor can a claim that has lapsed already, even unpaced.
    await expect(new SendPacer({ perMinute: 0, jitterMs: 0 }, () => 0, now, wait).waitTurn('phone-1', undefined, { deadline: time.now })).resolves.toBe('lapsed');

    // The turn it left is the next task's.
    await expect(sut.waitTurn('phone-1', undefined, { deadline: time.now + 16_000 })).resolves.toBe('go');
    expect(time.waits).toEqual([0, 15_000]);
  });

  it('gives up a jitter wait when the worker stops', async () => {
    const sut = new SendPacer({ perMinute: 0, jitterMs: 0 }, () => 0.99);
    await sut.waitTurn('phone-1', undefined, { jitterS: 60 });
    const stopping = new AbortController();
    const started = Date.now();

    const turn = sut.waitTurn('phone-1', stopping.signal, { jitterS: 60 });
    stopping.abort();

    await expect(turn).resolves.toBe('stopped');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
