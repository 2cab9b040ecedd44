import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Picks come from below the range the kernel hands out for `listen(0)` and for outgoing connections
 * (Linux's ip_local_port_range): a port from that range could go to a connection before the process
 * meant for it listened (docs/decisions.md, "Test ports"). Each process walks from a random start.
 */
const LOWEST = 10_000;
const ephemeralStart = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
})();
const pickable = ephemeralStart !== undefined && ephemeralStart > LOWEST + 1_000 ? ephemeralStart - LOWEST : undefined;
let next = pickable === undefined ? 0 : Math.floor(Math.random() * pickable);

/** A port nothing listens on right now, for a process the test or the bench starts. */
export async function freePort(): Promise<number> {
  if (pickable !== undefined) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = LOWEST + (next++ % pickable);
      if ((await listenOn(port).catch(() => undefined)) !== undefined) return port;
    }
  }
  return listenOn(0);
}

/** Listens on `port` (0: one the kernel picks) on every address, as the services do, and lets it go again; answers the port. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
