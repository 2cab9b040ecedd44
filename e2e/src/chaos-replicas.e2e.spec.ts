import { describe, expect, it } from 'vitest';
import { PHONE_HANG, runChaos, WORKER_DOWN, type Fault } from './support/chaos/chaos-run.js';
import { printFigures } from './support/chaos/figures.js';
import { CLAIM_TIMEOUT_S, SHORT_SILENCE_MS } from './support/chaos/short-runs.js';

/**
 * The short replica run: each service's first or second copy killed once while the other serves,
 * a Postgres restart, and each server silent for a while; meanwhile the first phone hangs, and
 * later its worker is dead long enough for failover.
 */
const SHORT_REPLICA_FAULTS: Fault[] = [
  PHONE_HANG,
  { kill: 'api-gateway' },
  { kill: 'billing#2' },
  { kill: 'dispatch' },
  { kill: 'inbox#2' },
  WORKER_DOWN,
  { kill: 'dispatch#2' },
  { restart: 'postgres' },
  { silence: 'redis', forMs: SHORT_SILENCE_MS },
  { silence: 'postgres', forMs: SHORT_SILENCE_MS },
  { silence: 'rabbitmq', forMs: SHORT_SILENCE_MS },
];

/** chaos.e2e.spec.ts's run with two of every service (the long one is `npm run chaos`), on infrastructure of its own. */
describe('chaos: faults under load, two of every service', () => {
  it('with two of every service, every background job running twice, survives kills of either copy, a silent and a hung phone, and silent servers with no violation', async () => {
    const report = await runChaos({ faults: SHORT_REPLICA_FAULTS, quietMs: 2_500, clients: 3, claimTimeoutS: CLAIM_TIMEOUT_S, recoveryTimeoutMs: 120_000, replicas: true, log: (line) => console.log(`[chaos replicas] ${line}`) });
    console.log(printFigures(report));
    expect(report.kills).toBe(6);
    expect(report.restarts).toBe(1);
    expect(report.networkFaults).toBe(3);
    expect(report.phoneFaults).toBe(1);
    expect(report.phones.movedTasks).toBeGreaterThan(0);
    expect(report.phones.unknownOutcomes).toBeGreaterThan(0);
    expect(report.creates.created).toBeGreaterThan(50);
    expect(report.violations).toEqual([]);
  }, 600_000);
});
