// `npm run soak`: builds the services, then runs the soak (e2e/src/soak.soak.spec.ts): SOAK_MINUTES
// (default 30) of steady load on two of every service over a private Postgres, RabbitMQ and Redis,
// a fault every minute, then the verdict (docs/reliability.md, "30-minute soak"). The figures go to
// SOAK_OUTPUT (default docs/soak-last-run.json) and the plot beside it (.svg).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { nx, nxEnv, root } from './lib/workspace.mjs';

const env = {
  ...nxEnv,
  SOAK_OUTPUT: process.env.SOAK_OUTPUT ?? join(root, 'docs', 'soak-last-run.json'),
  SOAK_LOG_DIR: process.env.SOAK_LOG_DIR ?? join(root, '.smsq', 'soak-logs'),
};
const projects = 'api-gateway,billing,dispatch,inbox,dashboard,dashboard-web,worker,gateway-sim,admin';
const build = spawnSync(process.execPath, [nx, 'run-many', '-t', 'build', '-p', projects, '--parallel=2', '--output-style=stream'], { cwd: root, env, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '--config', join('soak', 'vitest.config.ts')], { cwd: join(root, 'e2e'), env, stdio: 'inherit' });
process.exit(run.status ?? 1);
