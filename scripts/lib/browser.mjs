// The dashboard's browser tests drive a real Chromium or Chrome, headless. A headless shell
// (Debian's `chromium-headless-shell`, Chrome's `chrome-headless-shell`) runs them on about a third
// of the CPU a full browser takes, whose headless windows still build its own interface. `npm test`
// finds one, and where it may (root, apt) installs Debian's package; where neither can be, a
// full Chromium or Chrome on the PATH does. It never skips the browser tests and never downloads a
// browser from elsewhere.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const HEADLESS_SHELLS = ['chromium-headless-shell', 'chrome-headless-shell'];
const FULL_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of `names` on the PATH, undefined when there is none. */
function onPath(names) {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of names) for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  return undefined;
}

/** apt-get with `args`, without questions, giving up soon on a mirror it cannot reach; answers what it printed, or undefined when it failed. */
function aptGet(args) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = spawnSync('apt-get', ['-o', 'Acquire::Retries=0', '-o', 'Acquire::http::Timeout=15', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return run.status === 0 ? run.stdout : undefined;
}

/**
 * Installs `pkg` with apt when this runs as root where apt is; answers whether it did. With
 * `refresh` (a machine with no browser at all) the package lists are refreshed first. With
 * `onlyAdding` it installs only where apt would add packages and change none already there (the
 * headless shell needs the very version of `chromium-common` a full Chromium has).
 */
function aptInstall(pkg, { refresh, onlyAdding }, log) {
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) return false;
  const install = ['install', '-y', '-qq', '--no-install-recommends', pkg];
  if (onlyAdding) {
    const plan = aptGet(['-s', ...install]);
    // A simulated upgrade reads `Inst name [old version] (new …)`, a removal `Remv …`.
    if (plan === undefined || /^(Remv |Inst \S+ \[)/m.test(plan)) return false;
  }
  log(`installing the system ${pkg} package for the browser tests…`);
  if (refresh && aptGet(['update', '-qq']) === undefined) return false;
  return aptGet(install) !== undefined;
}

/**
 * The browser's path: `CHROMIUM_PATH`, else a headless shell on the PATH, else one installed now
 * when it may, else a full Chromium or Chrome on the PATH (with none at all, the system's chromium
 * package installed); else it stops with what to do.
 */
export function requireBrowser(log) {
  const { CHROMIUM_PATH } = process.env;
  if (CHROMIUM_PATH) return executable(CHROMIUM_PATH) ? CHROMIUM_PATH : stop(`CHROMIUM_PATH is ${CHROMIUM_PATH}, which is not an executable browser.`);
  const full = onPath(FULL_BROWSERS);
  const shell = () => onPath(HEADLESS_SHELLS);
  // Where a full browser is there already, the lighter one is added only as the package lists
  // stand and only where nothing else changes: a machine that cannot keeps the browser it has.
  if (shell() || aptInstall('chromium-headless-shell', { refresh: !full, onlyAdding: Boolean(full) }, log)) return shell() ?? full ?? stop('The headless shell installed but is not on the PATH.');
  if (full) return full;
  if (aptInstall('chromium', { refresh: false, onlyAdding: false }, log)) return onPath(FULL_BROWSERS) ?? stop('No Chromium or Chrome found.');
  return stop('No Chromium or Chrome found.');
}

function stop(reason) {
  process.stderr.write(
    `${reason} The dashboard's browser tests need one: install your system's chromium-headless-shell or chromium package ` +
      '(Debian/Ubuntu: sudo apt-get install chromium-headless-shell), or Chrome, or set CHROMIUM_PATH to a Chromium or Chrome executable, then run the tests again.\n',
  );
  process.exit(1);
}
