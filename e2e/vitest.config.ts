import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { projectTestConfig } from '../vitest.shared.js';

const CHAOS = 'src/chaos.e2e.spec.ts';
const START = 'src/start.e2e.spec.ts';

/**
 * The files that take longest (seconds in the last full run, on a slow 2-core machine), in the
 * order they start: started first, they overlap the rest instead of running alone at the end; the
 * chaos run and the first files beside it are as long as the run of the replicas that follows.
 * Files not named keep Vitest's order after them. Only the order depends on this list; it never
 * picks what runs.
 */
const SLOWEST_FIRST = [
  CHAOS, // 189
  'src/phones.failover.e2e.spec.ts', // 53
  'src/phones.termux.e2e.spec.ts', // 35
  'src/phones.smsgate.e2e.spec.ts', // 30
  'src/dashboard.e2e.spec.ts', // 92
  // Taken by the lane that frees after the five before it, about when the chaos run ends: the two chaos runs overlap little or not at all.
  'src/chaos-replicas.e2e.spec.ts', // 200
  'src/sim-care.e2e.spec.ts', // 90–130: a phone's silence (31 s) and a send window opening on the real clock, side by side
  'src/phones-liveness.e2e.spec.ts', // 49
  'src/account-settings.e2e.spec.ts', // 55
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

// Each suite starts a whole stack of processes, and the step is bound by the CPU: its two cores
// were 91–95 % busy whether two or three files ran at once, and took the same time (1,045 s and
// 1,018 s on a slow machine). Two at a time, the chaos run (its own Postgres, RabbitMQ and Redis,
// restarted under load; about 1.4 cores on its own) runs beside one other file, not beside two:
// three at a time, a stack starting beside the two chaos runs was not ready within a minute on that
// machine, where two at a time every file passed. `npm start` builds what is not built, and Nx
// restores every project's dist from its cache while it does: a stack starting beside it found
// modules missing, so it runs alone, first. Each project names its own files (a project's lists
// add to the root's).
// A worker runs file after file in one module graph (isolate: false): loading the specs' imports
// again for every file took 158 s of the lanes' time. A file's stacks and processes are still its own.
// A set-up starts processes, and beside a chaos run on that slower machine the dashboard's (a stack,
// the dashboard, the phone stand-in and Chromium) took over a minute: set-ups get three (the stack's
// own waits, stack.ts, stay shorter, so one that never gets ready still fails with its last lines).
const config = projectTestConfig({ include: [], testTimeout: 60_000, hookTimeout: 180_000, maxWorkers: Number(process.env['SMSQ_E2E_WORKERS'] ?? 2), isolate: false });
config.test!.sequence = { sequencer: SlowestFirst };
config.test!.projects = [
  { extends: true, test: { name: 'npm start', include: [START], sequence: { groupOrder: 0 } } },
  // Files that test the API with a Profile A stack's default settings share one (support/shared-stack.ts).
  { extends: true, test: { name: 'stacks', include: ['src/**/*.e2e.spec.ts'], exclude: [START], sequence: { groupOrder: 1 }, globalSetup: ['src/support/shared-stack.global.ts'] } },
  // The harness's own rules (the soak's verdict) and the docs' links, which need no stack.
  { extends: true, test: { name: 'harness', include: ['src/support/**/*.spec.ts', 'src/docs-links.spec.ts'], sequence: { groupOrder: 1 } } },
];
export default config;
