// deploy/'s checks of the compose files run `docker compose config` (no Docker engine needed). `npm
// test` finds Docker Compose, and on a machine with none installs Debian's or Ubuntu's
// `docker-compose` package when it may (root, apt); it never skips those checks.
import { spawnSync } from 'node:child_process';

const answers = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const found = () => answers('docker', ['compose', 'version']) || answers('docker-compose', ['version']);

export function requireCompose(log) {
  if (found()) return;
  if (process.getuid?.() === 0 && answers('apt-get', ['--version'])) {
    log('no Docker Compose found: installing the system docker-compose package for the checks of the compose files…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'docker-compose']]) {
      const run = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
      if (run.status !== 0) return stop(`apt-get ${args.join(' ')} failed.`);
    }
    if (found()) return;
  }
  stop('No Docker Compose found.');
}

function stop(reason) {
  process.stderr.write(
    `${reason} The checks of the compose files run \`docker compose config\`, which needs no Docker engine: install Docker's compose plugin, ` +
      'or your system\'s docker-compose package (Debian/Ubuntu: sudo apt-get install docker-compose), then run the tests again.\n',
  );
  process.exit(1);
}
