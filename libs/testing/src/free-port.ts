import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where picks start: ports the kernel never hands out by itself. A port it chose for `listen(0)` is
 * free when asked, but the kernel may give it to any connection opened before the process meant
 * for it listens (the local end of an outgoing connection comes from the same range), and that
 * process then dies with EADDRINUSE; the more tests run at once, the likelier. Below the range the
 * kernel picks from (Linux: ip_local_port_range, 32768–60999 by default) a port is only ever taken
 * by an explicit bind. Each process walks the ports from a random start, so two processes' picks
 * meet only by chance, and a port something already holds is passed over.
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

/** Listens on `port` (0: one the kernel picks) and lets it go again; answers the port. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
