import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, it } from 'vitest';
import { ALL_FAULTS, runChaos } from './support/chaos/chaos-run.js';
import { printFigures } from './support/chaos/figures.js';

const rounds = Number(process.env['CHAOS_ROUNDS'] ?? '2');
const output = process.env['CHAOS_OUTPUT'];

/** `npm run chaos`: every fault, several rounds, longer quiet spells; the figures go to CHAOS_OUTPUT. */
it(`chaos run: ${rounds} round(s) of every kill and restart, no violation`, async () => {
  const report = await runChaos({
    faults: Array.from({ length: rounds }, () => ALL_FAULTS).flat(),
    quietMs: Number(process.env['CHAOS_QUIET_MS'] ?? '6000'),
    clients: 4,
    claimTimeoutS: 3,
    recoveryTimeoutMs: 120_000,
    log: (line) => console.log(`[chaos] ${line}`),
    logDir: process.env['CHAOS_LOG_DIR'],
  });
  if (output) {
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, `${JSON.stringify(report, null, 2)}\n`);
  }
  console.log(printFigures(report));
  expect(report.violations).toEqual([]);
  expect(report.kills).toBeGreaterThanOrEqual(5);
  expect(report.restarts).toBeGreaterThanOrEqual(3);
});
