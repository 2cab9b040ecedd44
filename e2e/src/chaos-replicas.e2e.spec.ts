import { describe, it } from 'vitest';
import { PHONE_HANG, WORKER_DOWN, type Fault } from './support/chaos/chaos-run.js';
import { expectShortRunHolds, SHORT_SILENCE_MS } from './support/chaos/short-runs.js';

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
    await expectShortRunHolds(SHORT_REPLICA_FAULTS, { kills: 6, restarts: 1, networkFaults: 3 }, { replicas: true, label: 'chaos replicas' });
  }, 600_000);
});
