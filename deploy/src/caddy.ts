import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';

/** Caddy's JSON configuration, as `caddy adapt` makes it from a Caddyfile (the parts the checks read and change). */
export interface CaddyConfig {
  admin?: { disabled?: boolean };
  storage?: { module: string; root: string };
  apps: {
    http: { https_port?: number; http_port?: number; servers: Record<string, { listen: string[]; routes: unknown[]; automatic_https?: { disable_redirects?: boolean } }> };
    tls?: { automation?: { policies?: { subjects?: string[]; issuers?: Record<string, unknown>[] }[] } };
    pki?: unknown;
  };
}

/** Caddy, to read the Caddyfile as Caddy does and to run it. None: the checks fail, saying what to install; they never skip. */
export function caddyCommand(): string {
  if (spawnSync('caddy', ['version'], { stdio: 'ignore' }).status === 0) return 'caddy';
  throw new Error(
    'checking the Caddyfile needs Caddy, and `caddy` does not answer here: on Debian and Ubuntu `apt-get install caddy` (`npm test` does that by itself where it runs as root), else https://caddyserver.com/docs/install',
  );
}

/** `caddy adapt`: the Caddyfile as Caddy reads it, with `env` for its `{$VARIABLES}`. Throws with Caddy's message when it refuses the file. */
export function adaptCaddyfile(file: string, env: Record<string, string>): CaddyConfig {
  const run = spawnSync(caddyCommand(), ['adapt', '--config', file, '--adapter', 'caddyfile'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env } });
  if (run.status !== 0) throw new Error(`caddy adapt ${file} failed: ${run.stderr.trim()}`);
  return JSON.parse(run.stdout) as CaddyConfig;
}

/** Caddy running `config` in the foreground, stopped by `stop()`. */
export async function runCaddy(config: CaddyConfig, dir: string, port: number): Promise<{ stop: () => Promise<void>; log: () => string }> {
  const file = join(dir, 'caddy.json');
  writeFileSync(file, JSON.stringify(config));
  const output: string[] = [];
  const child: ChildProcess = spawn(caddyCommand(), ['run', '--config', file], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`caddy did not listen on ${port}:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
    log: () => output.join(''),
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface ProxiedAnswer {
  status: number;
  body: string;
}

/** An HTTPS request to `host` (its name in SNI and Host) at 127.0.0.1:`port`, trusting Caddy's test certificate. */
export function httpsGet(host: string, port: number, path: string, headers: Record<string, string> = {}): Promise<ProxiedAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, servername: host, headers: { host, ...headers }, rejectUnauthorized: false, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.on('timeout', () => outgoing.destroy(new Error(`GET ${path} timed out`)));
    outgoing.end();
  });
}
