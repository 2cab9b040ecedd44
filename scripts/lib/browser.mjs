// The dashboard's browser tests drive a real Chromium or Chrome. `npm test` finds one, and on a
// machine with none installs Debian's or Ubuntu's `chromium` package when it may (root, apt); it
// never skips the browser tests and never downloads a browser from elsewhere.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `CHROMIUM_PATH` when set, else the first Chromium or Chrome on the PATH; undefined when there is none. */
export function findBrowser(env = process.env) {
  if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of NAMES) for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  return undefined;
}

/** The browser's path, installing the system package first when there is none and it may; else it stops with what to do. */
export function requireBrowser(log) {
  const found = findBrowser();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) return stop(`CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which is not an executable browser.`);
  if (process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0) {
    log('no Chromium or Chrome found: installing the system chromium package for the browser tests…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'chromium']]) {
      const run = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
      if (run.status !== 0) return stop(`apt-get ${args.join(' ')} failed.`);
    }
    const installed = findBrowser();
    if (installed) return installed;
  }
  return stop('No Chromium or Chrome found.');
}

function stop(reason) {
  process.stderr.write(
    `${reason} The dashboard's browser tests need one: install your system's chromium package (Debian/Ubuntu: sudo apt-get install chromium), ` +
      'or Chrome, or set CHROMIUM_PATH to a Chromium or Chrome executable, then run the tests again.\n',
  );
  process.exit(1);
}
