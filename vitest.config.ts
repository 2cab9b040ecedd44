import { defineConfig } from 'vitest/config';
import { testReporters } from './vitest.shared.js';

// Every project's unit and integration tests in one run (`npm test`; `npx vitest run` here): one
// Vite server transforms the libraries once for all of them, and every project's files share the
// workers, so no project waits alone at the end. Each project keeps its own settings (its
// vitest.config.ts); the end-to-end tests are not among them (they need the build, see e2e/).
export default defineConfig({
  test: {
    projects: ['apps/*/vitest.config.ts', 'libs/*/vitest.config.ts', 'deploy/vitest.config.ts'],
    // Vitest's default on two cores is one worker. Three: the step is bound by waits (timers, long
    // polls, silences), not by the cores; with two, a third of the machine's CPU sat idle through it
    // (145 s, 193 s of CPU). On a machine busy with other work, SMSQ_TEST_WORKERS=2 is the safer choice:
    // the outbox relays' timed back-off specs count rounds within a second.
    maxWorkers: Number(process.env['SMSQ_TEST_WORKERS'] ?? 3),
    reporters: testReporters('unit'),
  },
});
