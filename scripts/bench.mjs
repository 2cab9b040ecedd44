// `npm run bench [-- --quick] [-- --profile] [-- --only=queue,normal,deliver,failover,growth]`: builds the
// services and the bench, then runs it (bench/src/main.ts). Never part of `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { nx, nxEnv as env, requireLocalServices, root } from './lib/workspace.mjs';

const pgbench = process.env.PGBENCH ?? '/usr/bin/pgbench';
if (!existsSync(pgbench)) {
  process.stderr.write(`The bench compares against pgbench, which is not at ${pgbench}: install postgresql-client (or set PGBENCH).\n`);
  process.exit(1);
}
await requireLocalServices('The bench');

const build = spawnSync(process.execPath, [nx, 'run-many', '-t', 'build', '-p', 'api-gateway', 'billing', 'dispatch', 'inbox', 'one-process', 'bench', '--output-style=stream'], {
  cwd: root,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);

const bench = spawnSync(process.execPath, [join(root, 'bench', 'dist', 'main.js'), ...process.argv.slice(2)], { cwd: root, env: process.env, stdio: 'inherit' });
process.exit(bench.status ?? 1);
