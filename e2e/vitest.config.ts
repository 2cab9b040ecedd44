import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { projectTestConfig } from '../vitest.shared.js';

const CHAOS = 'src/chaos.e2e.spec.ts';
const START = 'src/start.e2e.spec.ts';

/**
 * The files that take longest, slowest first (seconds in the last full run on the 2-core machine):
 * started first, they overlap the rest instead of running alone at the end. Files not named keep
 * Vitest's order after them. Only the order depends on this list; it never picks what runs.
 */
const SLOWEST_FIRST = [
  CHAOS, // 195
  'src/phones.failover.e2e.spec.ts', // 106
  'src/phones.termux.e2e.spec.ts', // 77
  // Started once a lane is free, so that the two chaos runs overlap as little as they can.
  'src/chaos-replicas.e2e.spec.ts', // 184
  'src/phones.smsgate.e2e.spec.ts', // 89
  'src/dashboard.e2e.spec.ts', // 75
  'src/phones-liveness.e2e.spec.ts', // 42
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: Vitest's order stays among files of equal rank.
    return sorted.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}

// Each suite starts a whole stack of processes, mostly waiting on timers and long polls once up.
// The chaos run (its own Postgres, RabbitMQ and Redis, restarted under load) takes as long as
// all the other suites two at a time, so it runs beside them: three files at a time, the chaos
// run first. `npm start` builds what is not built, and Nx restores every project's dist from its
// cache while it does: a stack starting beside it found modules missing, so it runs alone, first.
// Each project names its own files (a project's lists add to the root's).
// A worker runs file after file in one module graph (isolate: false): loading the specs' imports
// again for every file took 158 s of the lanes' time. A file's stacks and processes are still its own.
const config = projectTestConfig({ include: [], testTimeout: 60_000, maxWorkers: Number(process.env['SMSQ_E2E_WORKERS'] ?? 3), isolate: false });
config.test!.sequence = { sequencer: SlowestFirst };
config.test!.projects = [
  { extends: true, test: { name: 'npm start', include: [START], sequence: { groupOrder: 0 } } },
  { extends: true, test: { name: 'stacks', include: ['src/**/*.e2e.spec.ts'], exclude: [START], sequence: { groupOrder: 1 } } },
  // The harness's own rules (the soak's verdict), which need no stack.
  { extends: true, test: { name: 'harness', include: ['src/support/**/*.spec.ts'], sequence: { groupOrder: 1 } } },
];
export default config;
