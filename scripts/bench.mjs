// `npm run bench [-- --quick] [-- --profile] [-- --only=queue,normal,deliver,growth]`: builds the
// services and the bench, then runs it (bench/src/main.ts). Never part of `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nx = join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function reachable(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const pgbench = process.env.PGBENCH ?? '/usr/bin/pgbench';
if (!existsSync(pgbench)) {
  process.stderr.write(`The bench compares against pgbench, which is not at ${pgbench}: install postgresql-client (or set PGBENCH).\n`);
  process.exit(1);
}
const missing = [];
for (const [name, port] of [['PostgreSQL', 5432], ['RabbitMQ', 5672], ['Redis', 6379]]) if (!(await reachable(port))) missing.push(`${name} (127.0.0.1:${port})`);
if (missing.length > 0) {
  process.stderr.write(`The bench needs ${missing.join(', ')}; start ${missing.length > 1 ? 'them' : 'it'} first (see README).\n`);
  process.exit(1);
}

const build = spawnSync(process.execPath, [nx, 'run-many', '-t', 'build', '-p', 'api-gateway', 'billing', 'dispatch', 'inbox', 'bench', '--output-style=stream'], {
  cwd: root,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);

const bench = spawnSync(process.execPath, [join(root, 'bench', 'dist', 'main.js'), ...process.argv.slice(2)], { cwd: root, env: process.env, stdio: 'inherit' });
process.exit(bench.status ?? 1);
