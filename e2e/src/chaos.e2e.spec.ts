import { describe, expect, it } from 'vitest';
import { ALL_FAULTS, networkFaults, runChaos } from './support/chaos/chaos-run.js';
import { printFigures } from './support/chaos/figures.js';
import { CLAIM_TIMEOUT_S, SHORT_SILENCE_MS } from './support/chaos/short-runs.js';

/**
 * The short chaos run (the long one is `npm run chaos`): load from several clients while every
 * process is SIGKILLed and Postgres, RabbitMQ and Redis are restarted, a phone hangs and later its
 * worker is dead until the phone goes silent, then the checks of the issue, which must find
 * nothing. The same with two of every service is chaos-replicas.e2e.spec.ts, which runs beside
 * this one on infrastructure of its own.
 */
describe('chaos: faults under load', () => {
  it('survives every kill and restart, a phone silent and a phone hung, and each server silent, slow and reset, with no violation', async () => {
    const report = await runChaos({ faults: [...ALL_FAULTS, ...networkFaults(SHORT_SILENCE_MS, 5_000)], quietMs: 2_500, clients: 3, claimTimeoutS: CLAIM_TIMEOUT_S, recoveryTimeoutMs: 120_000, log: (line) => console.log(`[chaos] ${line}`) });
    console.log(printFigures(report));
    expect(report.kills).toBe(5);
    expect(report.restarts).toBe(3);
    expect(report.networkFaults).toBe(9);
    expect(report.phoneFaults).toBe(1);
    expect(report.phones.movedTasks).toBeGreaterThan(0);
    expect(report.phones.unknownOutcomes).toBeGreaterThan(0);
    expect(report.creates.created).toBeGreaterThan(50);
    expect(report.violations).toEqual([]);
  }, 600_000);
});
