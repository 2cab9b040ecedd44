// `npm run --silent admin -- <noun> <verb> [--flag value]…`: the admin command line, built first
// if it is not (build output goes to stderr so stdout stays one JSON object).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { appFile, root } from './lib/workspace.mjs';

const cli = join(root, appFile('admin'));
if (!existsSync(cli)) {
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'run', 'admin:build'], {
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
