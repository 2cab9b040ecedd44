import { projectTestConfig } from '../vitest.shared.js';

const CHAOS = 'src/chaos.e2e.spec.ts';
const START = 'src/start.e2e.spec.ts';

// Each suite starts a whole stack of processes; two at a time is what two cores carry. The chaos
// run saturates the machine on purpose (its own Postgres, RabbitMQ and Redis restarted under
// load), which made another suite's first calls time out beside it, so it runs alone, last.
// `npm start` builds what is not built, and Nx restores every project's dist from its cache while
// it does: a stack starting beside it found modules missing, so it runs alone, first.
// Each project names its own files (a project's lists add to the root's).
const config = projectTestConfig({ include: [], testTimeout: 60_000, maxWorkers: 2 });
config.test!.projects = [
  { extends: true, test: { name: 'npm start', include: [START], sequence: { groupOrder: 0 } } },
  { extends: true, test: { name: 'stacks', include: ['src/**/*.e2e.spec.ts'], exclude: [CHAOS, START], sequence: { groupOrder: 1 } } },
  { extends: true, test: { name: 'chaos', include: [CHAOS], sequence: { groupOrder: 2 } } },
];
export default config;
