import { dropDatabase, freePort } from '@smsq/testing';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { npmStartEnv } from './support/npm-start.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A line of a Node or Nest stack trace. */
const STACK_FRAME = /^\s+at \S.*(:\d+:\d+\)?|<anonymous>\)?)$/m;

interface Run {
  code: number | null;
  ms: number;
  output: string;
}

/**
 * `npm start` on a machine as it comes: a server that is not there gets one clear message and a
 * non-zero exit, never a crash loop; one that is installed but stopped is started. Every address
 * here is this test's own (closed ports, a private Redis), never the machine's shared servers.
 */
describe('npm start when a server is missing or stopped', () => {
  const databases: string[] = [];
  const running: ChildProcess[] = [];
  const privateRedisPorts: number[] = [];

  afterAll(async () => {
    for (const child of running) if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
    for (const port of privateRedisPorts) shutdownRedis(port);
    for (const name of databases) await dropDatabase(name);
  });

  async function startEnv(overrides: Record<string, string>): Promise<Record<string, string>> {
    const id = randomBytes(4).toString('hex');
    const databaseName = `smsq_e2e_first_${id}`;
    databases.push(databaseName);
    return npmStartEnv(databaseName, `e2e_first_${id}`, overrides);
  }

  /** npm start until it exits, or until `until` appears in its output (then it is left running). */
  async function npmStart(env: Record<string, string>, options: { until?: string; timeoutMs: number }): Promise<Run & { child: ChildProcess }> {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    let output = '';
    let reached: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => (reached = resolve));
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        output += chunk.replace(/\u001b\[[0-9;]*m/g, '');
        if (options.until && output.includes(options.until)) reached();
      });
    }
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    const timedOut = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), options.timeoutMs));
    const outcome = await Promise.race([exited, seen.then(() => 'reached' as const), timedOut]);
    if (outcome === 'timeout') throw new Error(`npm start neither exited nor printed ${JSON.stringify(options.until)} within ${options.timeoutMs} ms:\n${output}`);
    return { child, code: outcome === 'reached' ? null : outcome, ms: Date.now() - startedAt, output };
  }

  it.each([
    ['PostgreSQL', 'DATABASE_URL', (port: number) => `postgresql://postgres@127.0.0.1:${port}/smsq`],
    ['RabbitMQ', 'AMQP_URL', (port: number) => `amqp://guest:guest@127.0.0.1:${port}`],
    // A local Redis on a closed port would be started (redis-server is installed here): this one is on another loopback address.
    ['Redis', 'REDIS_URL', (port: number) => `redis://127.0.0.2:${port}`],
  ])('names %s when its address is a closed port, says how to get it, and exits non-zero within 10 s, without a stack trace or a restart', async (name, variable, url) => {
    const port = await freePort();
    const host = variable === 'REDIS_URL' ? '127.0.0.2' : '127.0.0.1';

    const run = await npmStart(await startEnv({ [variable]: url(port) }), { timeoutMs: 20_000 });

    expect(run.code, run.output).not.toBe(0);
    expect(run.code, run.output).not.toBeNull();
    expect(run.ms, run.output).toBeLessThan(10_000);
    expect(run.output).toContain(`${name} at ${host}:${port}: not reachable`);
    expect(run.output).toMatch(/Debian\/Ubuntu: /);
    expect(run.output).toMatch(/macOS: /);
    expect(run.output).toContain(`Or point ${variable} at`);
    expect(run.output).not.toMatch(STACK_FRAME);
    expect(run.output).not.toMatch(/restarting/i);
  }, 30_000);

  it('tells a refused login apart from a server that is not there', async () => {
    const run = await npmStart(await startEnv({ AMQP_URL: 'amqp://guest:not-the-password@127.0.0.1:5672' }), { timeoutMs: 20_000 });

    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain('RabbitMQ at 127.0.0.1:5672: refused the login of user "guest"');
    expect(run.output).not.toContain('RabbitMQ at 127.0.0.1:5672: not reachable');
    expect(run.output).not.toContain('not-the-password');
    expect(run.output).not.toMatch(STACK_FRAME);
  }, 30_000);

  it('starts a Redis installed here but stopped, says so, and goes on: create-task answers 201', async () => {
    const port = await freePort();
    privateRedisPorts.push(port);
    // A private Redis, then stopped, as a laptop's after a reboot.
    execFileSync('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'yes', '--save', '', '--appendonly', 'no']);
    shutdownRedis(port);
    const env = await startEnv({ REDIS_URL: `redis://127.0.0.1:${port}` });

    const run = await npmStart(env, { until: 'ready: the API at', timeoutMs: 180_000 });

    expect(run.output).toMatch(new RegExp(`Redis at 127\\.0\\.0\\.1:${port}: was stopped; started it \\(redis-server `));
    const baseUrl = `http://127.0.0.1:${env['PORT']}`;
    const apiKey = adminJson(env, 'key', 'create', '--client', String(adminJson(env, 'client', 'create', '--name', 'first five minutes').client_id)).api_key as string;
    const phone = await fetch(`${baseUrl}/smsapi/register-phone`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a phone', device_id: 'first-minutes' }) });
    expect(phone.status).toBe(201);
    const created = await fetch(`${baseUrl}/smsapi/create-task`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ recipient: '+381641234567', message: 'Hello from smsq' }),
    });
    expect(created.status).toBe(201);
    process.kill(-run.child.pid!, 'SIGINT');
    await once(run.child, 'exit');
  }, 240_000);
});

function shutdownRedis(port: number): void {
  try {
    execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'ignore' });
  } catch {
    // Already stopped.
  }
}

function adminJson(env: Record<string, string>, ...args: string[]): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'admin.mjs'), ...args], { cwd: ROOT, env, encoding: 'utf8' })) as Record<string, unknown>;
}
