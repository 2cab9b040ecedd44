import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where the end-to-end run says its chaos runs are over; `npm test` (scripts/test.mjs) starts the
 * unit tests beside the rest of the end-to-end files once it is there. Not a .json file, so it
 * never adds to the closing line's counts.
 */
export const CHAOS_RUNS_OVER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test-results', 'e2e-chaos-runs-over');

/**
 * A reporter that writes `marker` once every one of `files` has ended (passed or not):
 * the chaos runs hold their invariants only if the machine is not busier than they are bound for,
 * so nothing else of `npm test` joins them on the cores.
 */
export class ChaosRunsOver implements Reporter {
  private readonly running: Set<string>;

  constructor(
    files: readonly string[],
    private readonly marker = CHAOS_RUNS_OVER,
  ) {
    this.running = new Set(files);
  }

  onTestModuleEnd(testModule: TestModule): void {
    const file = [...this.running].find((name) => testModule.moduleId.endsWith(name));
    if (!file) return;
    this.running.delete(file);
    if (this.running.size > 0) return;
    mkdirSync(dirname(this.marker), { recursive: true });
    writeFileSync(this.marker, `${new Date().toISOString()}\n`);
  }
}
