// What the workspace scripts share: where the project is, how to run Nx (never a daemon, never a
// cloud), and the check that the local PostgreSQL, RabbitMQ and Redis are up.
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nx = join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
export const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function reachable(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Stops the script with a message naming what is missing when PostgreSQL, RabbitMQ or Redis is not up. */
export async function requireLocalServices(who) {
  const missing = [];
  for (const [name, port] of [['PostgreSQL', 5432], ['RabbitMQ', 5672], ['Redis', 6379]]) if (!(await reachable(port))) missing.push(`${name} (127.0.0.1:${port})`);
  if (missing.length === 0) return;
  process.stderr.write(`${who} ${missing.length > 1 ? 'need' : 'needs'} ${missing.join(', ')}; start ${missing.length > 1 ? 'them' : 'it'} first (see README).\n`);
  process.exit(1);
}
