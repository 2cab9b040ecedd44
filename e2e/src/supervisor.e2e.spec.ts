import { freePort } from '@smsq/testing';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUPERVISOR = pathToFileURL(join(ROOT, 'scripts', 'lib', 'supervisor.mjs')).href;
const STUCK_SERVICE = join(ROOT, 'e2e', 'src', 'support', 'programs', 'stuck-service.mjs');

/** `npm start`'s supervisor, as Kubernetes' liveness probe: a service whose /healthz keeps failing is restarted. */
describe('npm start supervisor', () => {
  it('restarts a service once its /healthz has failed three times in a row, and only then', async () => {
    const port = await freePort();
    const program = `
      import { Supervisor } from ${JSON.stringify(SUPERVISOR)};
      const supervisor = new Supervisor({ cwd: ${JSON.stringify(ROOT)}, env: process.env, colour: false });
      process.on('SIGTERM', () => void supervisor.stop(0));
      supervisor.start('stuck', [${JSON.stringify(STUCK_SERVICE)}, '${port}'], {}, { healthUrls: ['http://127.0.0.1:${port}/healthz'] });`;
    const supervisor = spawn(process.execPath, ['--input-type=module', '-e', program], { env: { ...process.env, SMSQ_SUPERVISOR_HEALTH_PERIOD_MS: '200' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: string[] = [];
    supervisor.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    try {
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no restart seen:\n${lines.join('\n')}`)), 15_000);
        supervisor.stdout.on('data', () => {
          if (lines.filter((line) => line.includes('listening as')).length >= 2) {
            clearTimeout(deadline);
            resolve();
          }
        });
      });
    } finally {
      const exited = new Promise((resolve) => supervisor.once('exit', resolve));
      if (supervisor.exitCode === null) supervisor.kill('SIGTERM');
      await exited;
    }

    const starts = lines.filter((line) => line.includes('listening as'));
    expect(new Set(starts).size).toBe(2);
    const firstLife = lines.slice(0, lines.indexOf(starts[1]!));
    const restart = firstLife.findIndex((line) => line.includes('unhealthy (/healthz: 503); restarting it'));
    // Two failures, then a 200, do not count; three in a row do: health checks 6, 7 and 8.
    expect(firstLife.filter((line) => line.includes('unhealthy'))).toHaveLength(1);
    expect(restart).toBeGreaterThan(firstLife.findIndex((line) => line.endsWith('health 8: 503')));
    expect(firstLife.slice(0, restart).filter((line) => /health \d+:/.test(line)).map((line) => line.replace(/^.*health /, ''))).toEqual(['1: 200', '2: 200', '3: 503', '4: 503', '5: 200', '6: 503', '7: 503', '8: 503']);
  }, 30_000);
});
