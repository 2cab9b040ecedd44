import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestModule } from 'vitest/node';
import { afterEach, describe, expect, it } from 'vitest';
import { ChaosRunsOver } from './chaos-runs-over.js';

const ended = (moduleId: string) => ({ moduleId }) as TestModule;

describe('ChaosRunsOver', () => {
  const dirs: string[] = [];
  const markerIn = () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaos-runs-over-'));
    dirs.push(dir);
    return join(dir, 'results', 'over');
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('says the chaos runs are over only once every one of them has ended, whatever else ended meanwhile', () => {
    const marker = markerIn();
    const reporter = new ChaosRunsOver(['src/chaos.e2e.spec.ts', 'src/chaos-replicas.e2e.spec.ts'], marker);
    reporter.onTestModuleEnd(ended('/repo/e2e/src/chaos.e2e.spec.ts'));
    reporter.onTestModuleEnd(ended('/repo/e2e/src/dashboard.e2e.spec.ts'));
    expect(existsSync(marker)).toBe(false);
    reporter.onTestModuleEnd(ended('/repo/e2e/src/chaos-replicas.e2e.spec.ts'));
    expect(existsSync(marker)).toBe(true);
  });

  it('does not count a file that merely ends with the same letters as one of them', () => {
    const marker = markerIn();
    const reporter = new ChaosRunsOver(['src/chaos.e2e.spec.ts'], marker);
    reporter.onTestModuleEnd(ended('/repo/e2e/src/long-chaos.e2e.spec.ts'));
    expect(existsSync(marker)).toBe(false);
  });
});
