import { describe, expect, it } from 'vitest';
import { ALL_FAULTS, runChaos, type Fault } from './support/chaos/chaos-run.js';
import { printFigures } from './support/chaos/figures.js';

/** The short replica run: each service's first or second copy killed once while the other serves, and a Postgres restart. */
const SHORT_REPLICA_FAULTS: Fault[] = [{ kill: 'api-gateway' }, { kill: 'billing#2' }, { kill: 'dispatch' }, { kill: 'inbox#2' }, { kill: 'worker' }, { kill: 'dispatch#2' }, { restart: 'postgres' }];

/**
 * The short chaos runs (the long ones are `npm run chaos`): load from several clients while every
 * process is SIGKILLed and Postgres, RabbitMQ and Redis are restarted, then the checks of the
 * issue, which must find nothing; then the same with two of every service.
 */
describe('chaos: faults under load', () => {
  it('survives every kill and restart with no violation', async () => {
    const report = await runChaos({ faults: ALL_FAULTS, quietMs: 2_500, clients: 3, claimTimeoutS: 3, recoveryTimeoutMs: 120_000, log: (line) => console.log(`[chaos] ${line}`) });
    console.log(printFigures(report));
    expect(report.kills).toBe(5);
    expect(report.restarts).toBe(3);
    expect(report.creates.created).toBeGreaterThan(50);
    expect(report.violations).toEqual([]);
  }, 600_000);

  it('with two of every service, every background job running twice, survives kills of either copy with no violation', async () => {
    const report = await runChaos({ faults: SHORT_REPLICA_FAULTS, quietMs: 2_500, clients: 3, claimTimeoutS: 3, recoveryTimeoutMs: 120_000, replicas: true, log: (line) => console.log(`[chaos replicas] ${line}`) });
    console.log(printFigures(report));
    expect(report.kills).toBe(6);
    expect(report.restarts).toBe(1);
    expect(report.creates.created).toBeGreaterThan(50);
    expect(report.violations).toEqual([]);
  }, 600_000);
});
