// What the workspace scripts share: where the project is, how to run Nx (never a daemon, never a
// cloud), and the check that the local PostgreSQL, RabbitMQ and Redis are up.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nx = join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
/** An app as its build leaves it to run: one file (rolldown.service.mjs), relative to `root`. */
export const appFile = (app) => `apps/${app}/dist/smsq-${app}.mjs`;
export const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function reachable(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Stops the script with a message naming what is missing when PostgreSQL, RabbitMQ or Redis is not up. */
export async function requireLocalServices(who) {
  const missing = [];
  for (const [name, port] of [['PostgreSQL', 5432], ['RabbitMQ', 5672], ['Redis', 6379]]) if (!(await reachable(port))) missing.push(`${name} (127.0.0.1:${port})`);
  if (missing.length === 0) return;
  process.stderr.write(`${who} ${missing.length > 1 ? 'need' : 'needs'} ${missing.join(', ')}; start ${missing.length > 1 ? 'them' : 'it'} first (see README).\n`);
  process.exit(1);
}

/**
 * Builds `projects`, then runs the e2e vitest config `config` (a path under e2e/) with `env`, and
 * exits with its status: the long runs (`npm run chaos`, `npm run soak`) outside `npm test`.
 */
export function buildThenRunE2e(projects, config, env) {
  const build = spawnSync(process.execPath, [nx, 'run-many', '-t', 'build', '-p', projects, '--parallel=2', '--output-style=stream'], { cwd: root, env, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--config', config], { cwd: join(root, 'e2e'), env, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
