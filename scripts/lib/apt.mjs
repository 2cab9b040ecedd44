// Debian's or Ubuntu's packages for what `npm test` needs on the machine (a browser, the deploy
// checks' tools), installed only where it may: as root, where apt is. Installs run in the
// background while the first steps run, one after another (apt holds a lock), and the package lists
// are refreshed once per run.
import { spawn, spawnSync } from 'node:child_process';

/** apt-get with `args`, without questions, giving up soon on a mirror it cannot reach; answers what it printed, or undefined when it failed. */
async function aptGet(args) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const child = spawn('apt-get', ['-o', 'Acquire::Retries=2', '-o', 'Acquire::http::Timeout=15', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const status = await new Promise((resolve) => child.on('close', resolve).on('error', () => resolve(-1)));
  return status === 0 ? output : undefined;
}

/** The installs of this run, one after another. */
let previous = Promise.resolve();
let refreshed = false;

/**
 * Installs `packages` when this runs as root where apt is; answers whether it did. With `refresh`
 * the package lists are refreshed first, unless an install of this run already did. With
 * `onlyAdding` it installs only where apt would add packages and change none already there.
 */
export function aptInstall(packages, options, log) {
  const installed = previous.then(() => install(packages, options, log));
  previous = installed.then(() => undefined);
  return installed;
}

async function install(packages, { refresh = false, onlyAdding = false, purpose }, log) {
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) return false;
  const command = ['install', '-y', '-qq', '--no-install-recommends', ...packages];
  if (onlyAdding) {
    const plan = await aptGet(['-s', ...command]);
    // A simulated upgrade reads `Inst name [old version] (new …)`, a removal `Remv …`.
    if (plan === undefined || /^(Remv |Inst \S+ \[)/m.test(plan)) return false;
  }
  log(`installing the system ${packages.join(' and ')} package for ${purpose}…`);
  if (refresh && !refreshed) {
    if ((await aptGet(['update', '-qq'])) === undefined) return false;
    refreshed = true;
  }
  return (await aptGet(command)) !== undefined;
}
