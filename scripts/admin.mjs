// `npm run --silent admin -- <noun> <verb> [--flag value]…`: the admin command line, built first
// if it is not (build output goes to stderr so stdout stays one JSON object). `npm run admin -- help
// [<noun> [<verb>]]` lists the commands and their flags for a terminal, without the services.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appFile, root } from './lib/workspace.mjs';

const args = process.argv.slice(2);
if (['help', '--help', '-h'].includes(args[0] ?? '')) await help(args.slice(1));

const cli = join(root, appFile('admin'));
buildIfMissing(cli, 'admin:build');
const run = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);

/** The command table's own help (libs/admin-commands), which needs no broker. */
async function help(topic) {
  const commands = join(root, 'libs', 'admin-commands', 'dist', 'index.js');
  buildIfMissing(commands, 'admin-commands:build');
  const { adminHelp } = await import(pathToFileURL(commands).href);
  try {
    process.stdout.write(adminHelp(topic));
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error.detail ?? error.message}\n`);
    process.exit(1);
  }
}

function buildIfMissing(file, target) {
  if (existsSync(file)) return;
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'run', target], {
    cwd: root,
    stdio: ['ignore', process.stderr, 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
