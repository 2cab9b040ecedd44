// deploy/'s checks of the production compose files run `docker compose config` (no Docker engine
// needed) and Caddy itself on the Caddyfile. `npm test` finds both, and on a machine without them
// installs Debian's or Ubuntu's `docker-compose` and `caddy` packages when it may (root, apt); it
// never skips those checks.
import { spawnSync } from 'node:child_process';
import { aptInstall } from './apt.mjs';

const answers = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const TOOLS = [
  { name: 'Docker Compose', found: () => answers('docker', ['compose', 'version']) || answers('docker-compose', ['version']), apt: 'docker-compose' },
  { name: 'Caddy', found: () => answers('caddy', ['version']), apt: 'caddy' },
];

/** Resolves once both are there; rejects with what to install when they are not and cannot be (the step that needs them fails, the steps running meanwhile finish). */
export async function requireDeployTools(log) {
  const missing = TOOLS.filter((tool) => !tool.found());
  if (missing.length === 0) return;
  if (await aptInstall(missing.map((tool) => tool.apt), { refresh: true, purpose: `the checks of deploy/compose (no ${missing.map((tool) => tool.name).join(' or ')} found)` }, log)) {
    // The package starts Caddy as a system service where systemd runs; the tests start their own.
    if (missing.some((tool) => tool.apt === 'caddy')) spawnSync('systemctl', ['disable', '--now', 'caddy'], { stdio: 'ignore' });
    if (TOOLS.every((tool) => tool.found())) return;
  }
  throw new Error(
    `No ${TOOLS.filter((tool) => !tool.found()).map((tool) => tool.name).join(' or ')} found. The checks of deploy/compose run \`docker compose config\` (no Docker engine needed) and Caddy on the Caddyfile: install Docker's compose plugin ` +
      "or your system's docker-compose package, and caddy (Debian/Ubuntu: sudo apt-get install docker-compose caddy), then run the tests again.",
  );
}
