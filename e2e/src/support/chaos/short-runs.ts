import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../stack.js';
import { runChaos, type Fault } from './chaos-run.js';
import { printFigures } from './figures.js';

/** What the two short chaos runs of `npm test` (chaos.e2e.spec.ts, chaos-replicas.e2e.spec.ts) share. */

/** Longer than every bound on silence (the broker's heartbeats notice one within 9 s), shorter than the long run's 20 s. */
export const SHORT_SILENCE_MS = 12_000;

/** Long enough for the real workers to hand an SMSGate phone its 10 s ttl (chaos-phones.ts). */
export const CLAIM_TIMEOUT_S = 14;

/**
 * The short runs' load: every loop of the three clients pauses this long between requests. The
 * long run's 40 ms keeps the services as busy as the machine lets them, which in `npm test` takes
 * the cores from the end-to-end files running beside the two short runs. At 200 ms the services
 * were still so busy that create-task's median before the faults was 1.9 s; at this pace a run
 * alone took a quarter less CPU (225 → 174 CPU-s) and still answered 201 to about 900 create-tasks
 * through its faults, a create-task every second or so from each loop.
 */
export const SHORT_RUN_PAUSE_MS = 400;

/**
 * The short runs' quiet spell, before the first fault and between faults once everything is ready
 * again: at the short runs' load, a dozen create-tasks or more, enough for the median a network
 * fault's recovery is held to. The long run's is 6 s.
 */
export const SHORT_QUIET_MS = 1_500;

/**
 * A short run of `faults` under the load of three clients, its figures printed, then its checks:
 * every fault of each kind happened and was recovered from (`expected`), the phone faults moved
 * tasks and left outcomes unknown, enough tasks were created, a quiet median was measured for the
 * network faults' recoveries to be held to, and no invariant was violated.
 */
export async function expectShortRunHolds(faults: Fault[], expected: { kills: number; restarts: number; networkFaults: number }, options: { replicas?: boolean; label: string }): Promise<void> {
  const report = await runChaos({ faults, quietMs: SHORT_QUIET_MS, clients: 3, claimTimeoutS: CLAIM_TIMEOUT_S, recoveryTimeoutMs: 120_000, load: { pauseMs: SHORT_RUN_PAUSE_MS, deliveryPauseMs: SHORT_RUN_PAUSE_MS / 2 }, replicas: options.replicas, logDirOnFailure: join(ROOT, 'test-results', 'chaos-logs', options.label.replaceAll(' ', '-')), log: (line) => console.log(`[${options.label}] ${line}`) });
  console.log(printFigures(report));
  expect(report.kills).toBe(expected.kills);
  expect(report.restarts).toBe(expected.restarts);
  expect(report.networkFaults).toBe(expected.networkFaults);
  expect(report.phoneFaults).toBe(1);
  expect(report.phones.movedTasks).toBeGreaterThan(0);
  expect(report.phones.unknownOutcomes).toBeGreaterThan(0);
  expect(report.creates.created).toBeGreaterThan(50);
  // Without it the network faults' latency checks would have nothing to compare with.
  expect(report.quietCreateP50Ms).not.toBeNull();
  expect(report.violations).toEqual([]);
}
