import { describe, it } from 'vitest';
import { ALL_FAULTS, networkFaults } from './support/chaos/chaos-run.js';
import { expectShortRunHolds, SHORT_SILENCE_MS } from './support/chaos/short-runs.js';

/**
 * The short chaos run (the long one is `npm run chaos`): load from several clients while every
 * process is SIGKILLed and Postgres, RabbitMQ and Redis are restarted, a phone hangs and later its
 * worker is dead until the phone goes silent, then the checks of the issue, which must find
 * nothing. The same with two of every service is chaos-replicas.e2e.spec.ts, which runs beside
 * this one on infrastructure of its own.
 */
describe('chaos: faults under load', () => {
  it('survives every kill and restart, a phone silent and a phone hung, and each server silent, slow and reset, with no violation', async () => {
    await expectShortRunHolds([...ALL_FAULTS, ...networkFaults(SHORT_SILENCE_MS, 5_000)], { kills: 5, restarts: 3, networkFaults: 9 }, { label: 'chaos' });
  }, 600_000);
});
