// What the workspace scripts share: where the project is, how to run Nx (never a daemon, never a
// cloud), and the check that PostgreSQL, RabbitMQ and Redis are up (servers.mjs).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nx = join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
/** An app as its build leaves it to run: one file (rolldown.service.mjs), relative to `root`. */
export const appFile = (app) => `apps/${app}/dist/smsq-${app}.mjs`;
export const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

/**
 * Stops the script with the preflight's message (servers.mjs: `npm start`'s and `npm test`'s) when
 * PostgreSQL, RabbitMQ or Redis is missing; a local one installed but stopped is started.
 */
export async function requireLocalServices(who) {
  const { exitAfterOutput, preflight } = await import('./servers.mjs');
  if (!(await preflight(who, process.env, { startStopped: true }))) await exitAfterOutput(1);
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
