import { dropDatabase } from '@smsq/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { npmStartEnv } from './support/npm-start.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `npm start` as a person runs it in a terminal: its own process group, the terminal's foreground job. */
describe('npm start in a terminal', () => {
  const databaseName = `smsq_e2e_start_${randomBytes(4).toString('hex')}`;
  let start: ChildProcess | undefined;

  afterAll(async () => {
    if (start?.exitCode === null && start.pid) process.kill(-start.pid, 'SIGKILL');
    await dropDatabase(databaseName);
  });

  it('says what is starting and where, then drains once on Ctrl-C: no service exits without finishing', async () => {
    const id = randomBytes(4).toString('hex');
    const env = await npmStartEnv(databaseName, `e2e_start_${id}`);
    start = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let ready: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    for (const stream of [start.stdout!, start.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        // Colour codes, when the test runner forces colour, are dropped.
        lines.push(...chunk.replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((line) => line !== ''));
        if (chunk.includes('ready: the API at')) ready();
      });
    }
    const exited = once(start, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    await Promise.race([isReady, exited.then(() => Promise.reject(new Error(`npm start exited before ready:\n${lines.join('\n')}`)))]);

    const startUp = lines.join('\n');
    expect(startUp).toMatch(/gateway listening on :\d+/);
    expect(startUp).toMatch(/dashboard listening on :\d+/);
    // The framework's start-up detail stays at debug level (SMSQ_LOG_LEVEL=debug shows it).
    expect(startUp).not.toMatch(/InstanceLoader|RouterExplorer|RoutesResolver|Mapped \{/);
    expect(lines.length).toBeLessThan(40);

    // Ctrl-C: the terminal signals the whole foreground group, and npm passes the same signal on again.
    const stoppedAt = lines.length;
    process.kill(-start.pid!, 'SIGINT');
    start.kill('SIGINT');
    const [code] = await exited;
    const stop = lines.slice(stoppedAt).join('\n');
    expect(stop).not.toContain('without finishing');
    for (const service of ['gateway', 'billing', 'dispatch', 'inbox', 'smpp', 'dashboard']) {
      expect(stop).toContain(`[${service}] SIGTERM: finishing requests and messages in hand`);
      expect(stop).toContain(`[${service}] drained`);
    }
    expect(stop.match(/SIGTERM: finishing/g)).toHaveLength(6);
    expect(code).toBe(0);
  }, 240_000);
});
