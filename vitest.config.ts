import { projectTestConfig } from './vitest.shared.js';

// Every project's unit and integration tests in one run (`npm test`; `npx vitest run` here), as one
// Vitest project: every project's settings are the same (each vitest.config.ts calls
// projectTestConfig(), which `nx run <project>:test` still uses), and as one project the workers
// load Nest, Prisma and the libraries once each and run every project's files in that one module
// graph. As fifteen projects, each worker loaded them again for each project it ran files of:
// 134 s of the step's import time. The end-to-end tests are not among them (they need the build, see e2e/).
// Three workers: the step is bound by waits (timers, long polls, silences) as much as by the cores;
// with two, a third of the machine's CPU sat idle through it (145 s, 193 s of CPU). On a machine busy
// with other work, SMSQ_TEST_WORKERS=2 is the safer choice: the outbox relays' timed back-off specs
// count rounds within a second.
export default projectTestConfig({
  include: ['apps/*/src/**/*.spec.ts', 'libs/*/src/**/*.spec.ts', 'deploy/src/**/*.spec.ts'],
  maxWorkers: Number(process.env['SMSQ_TEST_WORKERS'] ?? 3),
  results: 'unit',
});
