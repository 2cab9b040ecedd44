// Debian's or Ubuntu's packages for what `npm test` needs on the machine (a browser, the deploy
// checks' tools), installed only where it may: as root, where apt is.
import { spawnSync } from 'node:child_process';

/** apt-get with `args`, without questions, giving up soon on a mirror it cannot reach; answers what it printed, or undefined when it failed. */
function aptGet(args) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = spawnSync('apt-get', ['-o', 'Acquire::Retries=2', '-o', 'Acquire::http::Timeout=15', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return run.status === 0 ? run.stdout : undefined;
}

/**
 * Installs `packages` when this runs as root where apt is; answers whether it did. With `refresh`
 * the package lists are refreshed first. With `onlyAdding` it installs only where apt would add
 * packages and change none already there.
 */
export function aptInstall(packages, { refresh = false, onlyAdding = false, purpose }, log) {
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) return false;
  const install = ['install', '-y', '-qq', '--no-install-recommends', ...packages];
  if (onlyAdding) {
    const plan = aptGet(['-s', ...install]);
    // A simulated upgrade reads `Inst name [old version] (new …)`, a removal `Remv …`.
    if (plan === undefined || /^(Remv |Inst \S+ \[)/m.test(plan)) return false;
  }
  log(`installing the system ${packages.join(' and ')} package for ${purpose}…`);
  if (refresh && aptGet(['update', '-qq']) === undefined) return false;
  return aptGet(install) !== undefined;
}
