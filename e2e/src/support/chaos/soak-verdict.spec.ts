import { describe, expect, it } from 'vitest';
import type { AnswerTiming } from './chaos-http.js';
import { majorGcOf, type MajorGc } from '../major-gc.js';
import { busyShare, type Sample } from './soak-samples.js';
import { faultBound, floorGrowth, highestRollingP99, memoryFigures, p99, p99Recovery, tableBounds, tableFailures, type SoakRules } from './soak-verdict.js';

const RULES = { recoveryLimitMs: 30_000, p99WindowMs: 20_000, p99AtLeast: 100, slowAtMost: 4 } as SoakRules;
const PROBE_EVERY_MS = 200;

/** A deterministic stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** The probe's answers from `from` for `forMs`: mostly 100–200 ms, one in `slowOneIn` 250–350 ms (the quiet tail). */
function answers(from: number, forMs: number, random: () => number, options: { slowOneIn?: number; addMs?: number } = {}): AnswerTiming[] {
  const timings: AnswerTiming[] = [];
  for (let at = from; at < from + forMs; at += PROBE_EVERY_MS) {
    const slow = random() < 1 / (options.slowOneIn ?? 70);
    const ms = (slow ? 250 + random() * 100 : 100 + random() * 100) + (options.addMs ?? 0);
    timings.push({ endedAt: at + PROBE_EVERY_MS, ms: Math.round(ms), status: 201 });
  }
  return timings;
}

describe("the soak's recovery rule", () => {
  const RECOVERY = { ...RULES, beforeFaultMs: 30_000, beforeFaultAtLeast: 50 } as SoakRules;
  const quiet = answers(0, 120_000, seeded(1));
  const bound = p99(quiet, 0, 120_000, 100)!;
  const end = 200_000;

  it("holds a recovery to the quiet phase's p99, which lies in its slow tail; the top of its rolling p99s is reported beside it", () => {
    expect(bound).toBeGreaterThanOrEqual(250);
    expect(bound).toBeLessThan(350);
    expect(highestRollingP99(quiet, 0, 120_000, RULES)).toBeGreaterThanOrEqual(bound);
  });

  it('finds a service back once its answers are again drawn as in the quiet phase, for every one of 200 seeds', () => {
    // The old rule (the window's own p99 under the top of the quiet phase's rolling p99s) missed 30 of 1,000 such draws: a run of 24 faults failed about every second time with no fault's effect left at all.
    const missed = Array.from({ length: 200 }, (_, index) => index + 2).filter((seed) => p99Recovery(answers(end, 30_000, seeded(seed)), end, bound, RULES).p99BackInMs === null);
    expect(missed).toEqual([]);
  });

  it('finds a slow spell of 8 s after the end gone once the window holds no more than 4 of its answers, within the 30 s', () => {
    const after = [...answers(end, 8_000, seeded(10), { addMs: 400 }), ...answers(end + 8_000, 22_000, seeded(11), { slowOneIn: 1_000 })];
    const recovery = p99Recovery(after, end, bound, RULES);
    expect(recovery.p99BackInMs).toBeGreaterThanOrEqual(27_000);
    expect(recovery.p99BackInMs).toBeLessThanOrEqual(28_500);
    expect(recovery.slowAtBack).toBeLessThanOrEqual(4);
  });

  it('does not find back a service slow for 12 s after the end, nor one with one answer in eight in its slow tail', () => {
    const longSpell = [...answers(end, 12_000, seeded(12), { addMs: 400 }), ...answers(end + 12_000, 18_000, seeded(13), { slowOneIn: 1_000 })];
    const heavierTail = answers(end, 30_000, seeded(14), { slowOneIn: 8, addMs: 60 });
    expect(p99Recovery(longSpell, end, bound, RULES).p99BackInMs).toBeNull();
    expect(p99Recovery(heavierTail, end, bound, RULES).p99BackInMs).toBeNull();
  });

  it('holds a fault to the spell before it when that ran slower than the quiet phase, taken no earlier than 30 s after the previous fault', () => {
    const start = 300_000;
    const slower = [...answers(start - 90_000, 60_000, seeded(16), { addMs: 2_000 }), ...answers(start - 30_000, 30_000, seeded(17), { addMs: 100 })];
    const held = faultBound(slower, { startedAt: start }, { endedAt: start - 55_000 }, bound, RECOVERY);
    expect(held.beforeP99Ms).toBeGreaterThan(bound);
    expect(held.beforeP99Ms).toBeLessThan(500);
    expect(held.boundMs).toBe(held.beforeP99Ms);
    expect(faultBound(answers(start - 30_000, 30_000, seeded(18), { addMs: -50 }), { startedAt: start }, undefined, bound, RECOVERY).boundMs).toBe(bound);
    expect(faultBound([], { startedAt: start }, undefined, bound, RECOVERY)).toEqual({ beforeP99Ms: null, boundMs: bound });
  });

  it('counts an answer other than 201 as endless: a quiet phase with more than 1 % of them has no finite bound', () => {
    const failing = answers(0, 120_000, seeded(15)).map((timing, index) => (index % 50 === 0 ? { ...timing, status: 503 } : timing));
    expect(p99(failing, 0, 120_000, 100)).toBe(Infinity);
  });
});

describe("the soak's memory rule", () => {
  const from = 0;
  const to = 20 * 60_000;
  /** A sample every 5 s: `level(at)` MB, plus `spike(at)` MB where a fault holds memory. */
  const rss = (level: (at: number) => number, spike: (at: number) => number = () => 0): Array<[number, number]> => {
    const points: Array<[number, number]> = [];
    for (let at = from; at <= to; at += 5_000) points.push([at, level(at) + spike(at)]);
    return points;
  };
  /** A fault each minute from 0:30 holding 35 MB for 20 s, the last one at the window's very end. */
  const faultSpikes = (at: number) => ((at % 60_000 >= 30_000 && at % 60_000 < 50_000) || at > to - 20_000 ? 35 : 0);

  it("does not read a fault's spike as growth, even one at the window's end", () => {
    expect(floorGrowth(rss(() => 120, faultSpikes), from, to).pct).toBe(0);
  });

  it('reads a steady creep of the level between faults as growth, spikes or not', () => {
    const creep = (at: number) => 120 * (1 + (0.12 * at) / to);
    expect(floorGrowth(rss(creep), from, to).pct).toBeGreaterThanOrEqual(11);
    expect(floorGrowth(rss(creep, faultSpikes), from, to).pct).toBeGreaterThanOrEqual(11);
  });

  it('reads a level that steps up and stays up halfway as growth', () => {
    const step = (at: number) => (at < to / 2 ? 120 : 140);
    expect(floorGrowth(rss(step, faultSpikes), from, to).pct).toBeGreaterThanOrEqual(10);
  });
});

describe("the soak's memory rule on the heap major collections leave", () => {
  const from = 0;
  const to = 20 * 60_000;
  const pid = 4242;
  /** RSS every 5 s swinging between 83 and 125 MB a few minutes at a time, ending high (the fifth run's worker). */
  const swingingRss: Sample[] = [];
  const rssMb = (at: number) => (at < to - 240_000 && Math.floor(at / 180_000) % 2 === 0 ? 83 : 125);
  for (let at = from; at <= to; at += 5_000) swingingRss.push({ at, rss: { worker: { pid, kb: rssMb(at) * 1024 } }, rows: {}, notDone: {} });
  /** A major collection every 40 s, leaving `heap(at)` MB. */
  const collections = (heap: (at: number) => number, count = Infinity): MajorGc[] => {
    const gcs: MajorGc[] = [];
    for (let at = from + 20_000; at <= to && gcs.length < count; at += 40_000) gcs.push({ pid, at, heapMb: heap(at) });
    return gcs;
  };
  const worker = (gcs: MajorGc[]) => memoryFigures(swingingRss, { worker: gcs }, from, to, 5_000).find((one) => one.process === 'worker')!;

  it('reads the trace line of a major collection, a reducing one too, and nothing else', () => {
    expect(majorGcOf('[4242:0x5d1e8f0]     8123 ms: Mark-Compact 99.7 (133.3) -> 45.7 (80.1) MB, 35.00 / 0.00 ms  (average mu = 0.683) finalize incremental marking', 7)).toEqual({ pid: 4242, at: 7, heapMb: 45.7 });
    expect(majorGcOf('[17:0xabc]   612.5 ms: Mark-Compact (reduce) 40.2 (48.0) -> 38.9 (44.0) MB, 3.1 / 0.0 ms  (average mu = 0.99) memory reducer', 7)?.heapMb).toBe(38.9);
    expect(majorGcOf('[4242:0x5d1e8f0]     8100 ms: Scavenge 20.1 (25.0) -> 19.0 (26.0) MB, 1.2 / 0.0 ms  (average mu = 0.9) allocation failure;')).toBeUndefined();
    expect(majorGcOf('{"level":"log","message":"Mark-Compact 99.7 (133.3) -> 45.7 (80.1) MB"}')).toBeUndefined();
  });

  it('judges the heap, not the swinging RSS, and finds a flat heap flat', () => {
    const one = worker(collections(() => 40));
    expect(one).toMatchObject({ judgedOn: 'heap after major GC', growthPct: 0 });
    expect(one.rss!.growthPct).toBeGreaterThan(10);
  });

  it('finds a heap that creeps 12 % over the window grown, whatever the RSS does', () => {
    expect(worker(collections((at) => 40 * (1 + (0.12 * at) / to))).growthPct).toBeGreaterThanOrEqual(10);
  });

  it("judges the RSS floors of a process with fewer than three major collections, and ignores another pid's", () => {
    expect(worker(collections(() => 40, 2))).toMatchObject({ judgedOn: 'RSS', majorGcs: 2 });
    expect(worker(collections(() => 40).map((gc) => ({ ...gc, pid: 1 })))).toMatchObject({ judgedOn: 'RSS', majorGcs: 0 });
  });
});

describe("the soak's table rule", () => {
  const TABLE_RULES = { plateauFactor: 1.25, plateauSlackRows: 100, retention: { outboxS: 120, webhookS: 120, intervalS: 15, marginS: 30 } } as SoakRules;
  const from = 0;
  const to = 20 * 60_000;
  const AGES = { 'dispatch.outbox_messages': 122, 'dispatch.webhook_deliveries': 122, 'inbox.outbox_events': 125 };
  /** A sample every 5 s of the outbox: `all(at)` rows, `notDone(at)` of them not yet published. */
  const outbox = (all: (at: number) => number, notDone: (at: number) => number): Sample[] => {
    const samples: Sample[] = [];
    for (let at = from; at <= to; at += 5_000) samples.push({ at, rss: {}, rows: { 'dispatch.outbox_messages': all(at) }, notDone: { 'dispatch.outbox_messages': notDone(at) } });
    return samples;
  };
  const judged = (samples: Sample[], ages = AGES) => tableFailures(tableBounds(samples, ages, from, to, TABLE_RULES)[0]!, TABLE_RULES);

  it("does not read a burst of done rows after a fault, in the window's last minutes, as growth", () => {
    const burstAtTheEnd = outbox((at) => (at > to - 90_000 ? 1_360 : 900), (at) => (at > to - 90_000 && at < to - 70_000 ? 400 : 3));
    expect(judged(burstAtTheEnd)).toEqual([]);
  });

  it('finds rows not done with that pile up, and a done row older than retention allows', () => {
    const piling = outbox((at) => 900 + at / 1_000, (at) => Math.round(at / 2_000));
    expect(judged(piling)).toEqual([expect.stringContaining("rows not done with pile up: a median of 450 in the window's second half against 150")]);
    expect(judged(outbox(() => 900, () => 3), { ...AGES, 'dispatch.outbox_messages': 200 })).toEqual([expect.stringContaining('keeps a row done with 200 s ago')]);
  });

  it('does not pass a table it could not count', () => {
    expect(judged([])).toEqual([expect.stringContaining('not counted in both halves')]);
  });
});

describe("the soak's machine load", () => {
  const sample = (at: number, busy: number, total: number): Sample => ({ at, rss: {}, rows: {}, notDone: {}, cpu: { busy, total } });

  it('is the share of the ticks busy between the first and the last sample of the span, others ignored', () => {
    const samples = [sample(0, 0, 0), sample(10, 100, 400), sample(20, 400, 800), sample(30, 700, 1_200), sample(40, 1_200, 1_300)];
    expect(busyShare(samples, 10, 30)).toBeCloseTo(600 / 800);
    expect(busyShare(samples, 0, 40)).toBeCloseTo(1_200 / 1_300);
  });

  it('is unknown with fewer than two samples that read the CPU', () => {
    expect(busyShare([sample(0, 0, 0), { at: 10, rss: {}, rows: {}, notDone: {} }], 0, 10)).toBeNull();
  });
});
