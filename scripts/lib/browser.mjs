// The dashboard's browser tests drive a real Chromium or Chrome, headless. A headless shell
// (Debian's `chromium-headless-shell`, Chrome's `chrome-headless-shell`) runs them on about a third
// of the CPU a full browser takes, whose headless windows still build its own interface. `npm test`
// finds one, and where it may (root, apt) installs Debian's package; where neither can be, a
// full Chromium or Chrome on the PATH does. It never skips the browser tests and never downloads a
// browser from elsewhere.
import { join } from 'node:path';
import { aptInstall } from './apt.mjs';
import { executable, pathDirs } from './programs.mjs';

const HEADLESS_SHELLS = ['chromium-headless-shell', 'chrome-headless-shell'];
const FULL_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/** The first of `names` on the PATH, undefined when there is none. */
function onPath(names) {
  const dirs = pathDirs();
  for (const name of names) for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  return undefined;
}

/**
 * The browser's path: `CHROMIUM_PATH`, else a headless shell on the PATH, else one installed now
 * when it may, else a full Chromium or Chrome on the PATH (with none at all, the system's chromium
 * package installed); else it stops with what to do.
 */
export async function requireBrowser(log) {
  const { CHROMIUM_PATH } = process.env;
  if (CHROMIUM_PATH) return executable(CHROMIUM_PATH) ? CHROMIUM_PATH : stop(`CHROMIUM_PATH is ${CHROMIUM_PATH}, which is not an executable browser.`);
  const full = onPath(FULL_BROWSERS);
  // Where a full browser is there already, the lighter one is added only as the package lists
  // stand and only where nothing else changes (it needs the very version of `chromium-common` the
  // browser has): a machine that cannot keeps the browser it has.
  if (!onPath(HEADLESS_SHELLS)) await aptInstall(['chromium-headless-shell'], { refresh: !full, onlyAdding: Boolean(full), purpose: 'the browser tests' }, log);
  const found = onPath(HEADLESS_SHELLS) ?? full;
  if (found) return found;
  await aptInstall(['chromium'], { purpose: 'the browser tests' }, log);
  return onPath(FULL_BROWSERS) ?? stop('No Chromium or Chrome found.');
}

function stop(reason) {
  process.stderr.write(
    `${reason} The dashboard's browser tests need one: install your system's chromium-headless-shell or chromium package ` +
      '(Debian/Ubuntu: sudo apt-get install chromium-headless-shell), or Chrome, or set CHROMIUM_PATH to a Chromium or Chrome executable, then run the tests again.\n',
  );
  process.exit(1);
}
