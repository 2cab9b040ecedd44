import { describe, expect, it } from 'vitest';
import { ALL_FAULTS, runChaos } from './support/chaos/chaos-run.js';
import { printFigures } from './support/chaos/figures.js';

/**
 * The short chaos run (the long one is `npm run chaos`): load from several clients while every
 * process is SIGKILLed and Postgres, RabbitMQ and Redis are restarted, then the checks of the
 * issue, which must find nothing.
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
});
