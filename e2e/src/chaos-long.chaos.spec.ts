import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, it } from 'vitest';
import { ALL_FAULTS, networkFaults, REPLICA_FAULTS, runChaos, type ChaosReport, type Fault } from './support/chaos/chaos-run.js';
import { printFigures } from './support/chaos/figures.js';

const rounds = Number(process.env['CHAOS_ROUNDS'] ?? '2');
const output = process.env['CHAOS_OUTPUT'];
const replicasOutput = process.env['CHAOS_REPLICAS_OUTPUT'];

/** Each server (and the workers' way to the gateway) silent for 20 s, slow for 10 s, then reset. */
const NETWORK_FAULTS: Fault[] = networkFaults(20_000, 10_000, ['redis', 'postgres', 'rabbitmq', 'gateway']);

function save(report: ChaosReport, file: string | undefined): void {
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** Long enough for the real workers to hand an SMSGate phone its 10 s ttl (chaos-phones.ts). */
const CLAIM_TIMEOUT_S = 14;

/** `npm run chaos`: every fault, several rounds, longer quiet spells; the figures go to CHAOS_OUTPUT. */
it(`chaos run: ${rounds} round(s) of every kill, restart, silent and hung phone, silence, latency and reset, no violation`, async () => {
  const report = await runChaos({
    faults: Array.from({ length: rounds }, () => [...ALL_FAULTS, ...NETWORK_FAULTS]).flat(),
    quietMs: Number(process.env['CHAOS_QUIET_MS'] ?? '6000'),
    clients: 4,
    claimTimeoutS: CLAIM_TIMEOUT_S,
    recoveryTimeoutMs: 120_000,
    log: (line) => console.log(`[chaos] ${line}`),
    logDir: process.env['CHAOS_LOG_DIR'],
  });
  save(report, output);
  console.log(printFigures(report));
  expect(report.violations).toEqual([]);
  expect(report.kills).toBeGreaterThanOrEqual(5);
  expect(report.restarts).toBeGreaterThanOrEqual(3);
  expect(report.networkFaults).toBe(rounds * NETWORK_FAULTS.length);
  expect(report.phoneFaults).toBe(rounds);
  expect(report.phones.movedTasks).toBeGreaterThan(0);
  expect(report.phones.unknownOutcomes).toBeGreaterThan(0);
});

/** Two of every service, every background job running twice: each copy of each process killed in turn, then the restarts. */
it(`chaos run with two of every service: ${rounds} round(s), no violation`, async () => {
  const report = await runChaos({
    faults: Array.from({ length: rounds }, () => [...REPLICA_FAULTS, ...NETWORK_FAULTS]).flat(),
    quietMs: Number(process.env['CHAOS_QUIET_MS'] ?? '6000'),
    clients: 4,
    claimTimeoutS: CLAIM_TIMEOUT_S,
    recoveryTimeoutMs: 120_000,
    replicas: true,
    log: (line) => console.log(`[chaos replicas] ${line}`),
    logDir: process.env['CHAOS_LOG_DIR'] ? `${process.env['CHAOS_LOG_DIR']}-replicas` : undefined,
  });
  save(report, replicasOutput);
  console.log(printFigures(report));
  expect(report.violations).toEqual([]);
  expect(report.kills).toBeGreaterThanOrEqual(10);
  expect(report.restarts).toBeGreaterThanOrEqual(3);
  expect(report.networkFaults).toBe(rounds * NETWORK_FAULTS.length);
  expect(report.phoneFaults).toBe(rounds);
  expect(report.phones.movedTasks).toBeGreaterThan(0);
  expect(report.phones.unknownOutcomes).toBeGreaterThan(0);
});
