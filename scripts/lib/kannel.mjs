// The SMPP end-to-end tests drive a real SMPP client that this project did not write: Kannel's
// bearerbox and smsbox (Debian's or Ubuntu's `kannel` package). `npm test` finds both, and on a
// machine without them installs the package when it may (root, apt); it never skips those tests.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { aptInstall } from './apt.mjs';
import { executable, pathDirs } from './programs.mjs';

const BOXES = ['bearerbox', 'smsbox'];
/** Where the package puts the boxes, often missing from a user's PATH. */
const SBIN = ['/usr/sbin', '/usr/local/sbin'];
/** The package's own configuration listens on these (admin, smsbox, wapbox, sendsms); the tests' Kannel takes free ports. */
const DEFAULT_PORTS = [13000, 13001, 13002, 13013];
const HOW_TO_INSTALL =
  "The SMPP end-to-end tests run a real Kannel against smsq: install your system's kannel package (Debian/Ubuntu: sudo apt-get install kannel, " +
  'then sudo systemctl disable --now kannel), or set KANNEL_BIN_DIR to a folder holding bearerbox and smsbox, then run the tests again.';

const holdsBoxes = (dir) => BOXES.every((box) => executable(join(dir, box)));

/** The first folder of the PATH (then of SBIN) holding both boxes, undefined when there is none. */
function boxesDir() {
  const dirs = [...pathDirs(), ...SBIN];
  return dirs.find(holdsBoxes);
}

/**
 * The package starts bearerbox and wapbox as a system service on its default ports where it may
 * (systemd, or no policy-rc.d forbidding it): stopped and kept from starting at boot, since the
 * tests start their own.
 */
function stopSystemService() {
  // Where systemd runs this stops the service too; elsewhere it still disables the boot links (systemd-sysv-install).
  if (spawnSync('systemctl', ['disable', '--now', 'kannel'], { stdio: 'ignore' }).status !== 0) spawnSync('update-rc.d', ['kannel', 'disable'], { stdio: 'ignore' });
  // Without systemd the postinst ran the init script itself, whose boxes only it stops.
  spawnSync('/etc/init.d/kannel', ['stop'], { stdio: 'ignore' });
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 1_000 });
    const answer = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => answer(true)).once('error', () => answer(false)).once('timeout', () => answer(false));
  });
}

/** Which of the package's default ports something still listens on, once the boxes had 5 s to close them. */
async function portsStillTaken() {
  let busy = [];
  for (let attempt = 0; attempt < 10; attempt++) {
    busy = [];
    for (const port of DEFAULT_PORTS) if (await listening(port)) busy.push(port);
    if (busy.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return busy;
}

/**
 * The folder holding bearerbox and smsbox: `KANNEL_BIN_DIR`, else one on the PATH or in /usr/sbin,
 * else the package installed now when it may. Rejects with what to install when there is none (the
 * step that needs it fails, the steps running meanwhile finish).
 */
export async function requireKannel(log) {
  const { KANNEL_BIN_DIR } = process.env;
  if (KANNEL_BIN_DIR) {
    if (holdsBoxes(KANNEL_BIN_DIR)) return KANNEL_BIN_DIR;
    throw new Error(`KANNEL_BIN_DIR is ${KANNEL_BIN_DIR}, which does not hold Kannel's bearerbox and smsbox. ${HOW_TO_INSTALL}`);
  }
  const found = boxesDir();
  if (found) return found;
  if (await aptInstall(['kannel'], { refresh: true, purpose: 'the SMPP end-to-end tests (no bearerbox or smsbox found)' }, log)) {
    stopSystemService();
    const busy = await portsStillTaken();
    if (busy.length > 0) log(`Kannel's system service may still listen on ${busy.join(', ')}; the tests' own Kannel uses other ports.`);
    const installed = boxesDir();
    if (installed) return installed;
  }
  throw new Error(`No Kannel (bearerbox and smsbox) found. ${HOW_TO_INSTALL}`);
}
