import { describe, expect, it } from 'vitest';
import { ALL_FAULTS, networkFaults, PHONE_HANG, runChaos, WORKER_DOWN, type Fault } from './support/chaos/chaos-run.js';
import { printFigures } from './support/chaos/figures.js';

/** Longer than every bound on silence (the broker's heartbeats notice one within 9 s), shorter than the long run's 20 s. */
const SHORT_SILENCE_MS = 12_000;

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

/** Long enough for the real workers to hand an SMSGate phone its 10 s ttl (chaos-phones.ts). */
const CLAIM_TIMEOUT_S = 14;

/**
 * The short chaos runs (the long ones are `npm run chaos`): load from several clients while every
 * process is SIGKILLed and Postgres, RabbitMQ and Redis are restarted, a phone hangs and later its
 * worker is dead until the phone goes silent, then the checks of the issue, which must find
 * nothing; then the same with two of every service.
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
