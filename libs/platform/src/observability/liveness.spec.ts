import { describe, expect, it } from 'vitest';
import { Liveness } from './liveness.js';
import { Readiness } from './readiness.js';

const LIMIT_MS = 60_000;

function failing(): Promise<unknown> {
  return Promise.reject(new Error('no answer'));
}

describe(Liveness.name, () => {
  function setUp(options: { ownConnection: () => Promise<unknown>; freshConnection?: () => Promise<unknown>; alive?: () => boolean }) {
    const readiness = new Readiness();
    readiness.register('database', options.ownConnection, { reachable: options.freshConnection, alive: options.alive });
    const sut = new Liveness(readiness);
    sut.start(LIMIT_MS);
    sut.onApplicationShutdown();
    return sut;
  }

  it('asks for a restart once its own connection has failed for the limit while the dependency answers a fresh one', async () => {
    const sut = setUp({ ownConnection: failing, freshConnection: async () => undefined });

    await sut.watch(0);
    await sut.watch(30_000);
    expect(sut.report(LIMIT_MS - 1)).toEqual({ alive: true });

    await sut.watch(LIMIT_MS);
    const report = sut.report(LIMIT_MS);
    expect(report.alive).toBe(false);
    expect(!report.alive && report.stuck['database']).toContain('failing for 60 s while it answers a fresh connection: no answer');
  });

  it('stays alive however long the dependency itself is down: a restart would not bring it back', async () => {
    const sut = setUp({ ownConnection: failing, freshConnection: failing });

    for (let at = 0; at <= 10 * LIMIT_MS; at += 5_000) await sut.watch(at);

    expect(sut.report(10 * LIMIT_MS)).toEqual({ alive: true });
  });

  it('counts from when the dependency answers again, not from when the outage began', async () => {
    let dependencyUp = false;
    const sut = setUp({ ownConnection: failing, freshConnection: async () => (dependencyUp ? undefined : failing()) });
    await sut.watch(0);
    await sut.watch(5 * LIMIT_MS);

    dependencyUp = true;
    await sut.watch(5 * LIMIT_MS + 5_000);

    expect(sut.report(5 * LIMIT_MS + 5_000 + LIMIT_MS - 1)).toEqual({ alive: true });
    await sut.watch(6 * LIMIT_MS + 5_000);
    expect(sut.report(6 * LIMIT_MS + 5_000).alive).toBe(false);
  });

  it('starts counting afresh once its own connection healed', async () => {
    let healed = false;
    const sut = setUp({ ownConnection: async () => (healed ? undefined : failing()), freshConnection: async () => undefined });
    await sut.watch(0);
    healed = true;
    await sut.watch(30_000);
    healed = false;
    await sut.watch(35_000);

    await sut.watch(LIMIT_MS + 10_000);

    expect(sut.report(LIMIT_MS + 10_000)).toEqual({ alive: true });
  });

  it('never asks for a restart while its own connection shows it still works (a saturated pool still answering, a broker blocking it)', async () => {
    let answering = true;
    const sut = setUp({ ownConnection: failing, freshConnection: async () => undefined, alive: () => answering });
    await sut.watch(0);
    await sut.watch(10 * LIMIT_MS);
    expect(sut.report(10 * LIMIT_MS)).toEqual({ alive: true });

    answering = false;
    await sut.watch(10 * LIMIT_MS + 5_000);
    await sut.watch(11 * LIMIT_MS + 5_000);

    expect(sut.report(11 * LIMIT_MS + 5_000).alive).toBe(false);
  });

  it('never asks for a restart for a check without a fresh-connection probe (another service being down)', async () => {
    const sut = setUp({ ownConnection: failing });

    await sut.watch(0);
    await sut.watch(10 * LIMIT_MS);

    expect(sut.report(10 * LIMIT_MS)).toEqual({ alive: true });
  });
});
