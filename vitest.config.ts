import { defineConfig } from 'vitest/config';
import { testReporters } from './vitest.shared.js';

// Every project's unit and integration tests in one run (`npm test`; `npx vitest run` here): one
// Vite server transforms the libraries once for all of them, and every project's files share the
// workers, so no project waits alone at the end. Each project keeps its own settings (its
// vitest.config.ts); the end-to-end tests are not among them (they need the build, see e2e/).
export default defineConfig({
  test: {
    projects: ['apps/*/vitest.config.ts', 'libs/*/vitest.config.ts', 'deploy/vitest.config.ts'],
    // Vitest's default on two cores is one worker. Two, as Nx ran two projects at a time before:
    // with three, the outbox relays' timed back-off specs failed on a busy machine.
    maxWorkers: Number(process.env['SMSQ_TEST_WORKERS'] ?? 2),
    reporters: testReporters('unit'),
  },
});
