import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });

describe('freePort', () => {
  const held: Server[] = [];
  afterEach(async () => {
    await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('answers a port a process can listen on, one after another, passing over one in use', async () => {
    const first = await freePort();
    held.push(await listen(first));
    // The walk's next port, held by someone else (or already held: either way not to be answered).
    const taken = first + 1;
    await listen(taken).then((server) => held.push(server), () => undefined);
    const second = await freePort();
    expect([first, taken]).not.toContain(second);
    held.push(await listen(second));
  });

  it.runIf(process.platform === 'linux')('picks below the range the kernel hands out for outgoing connections and port 0', async () => {
    const [ephemeralStart] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    for (let pick = 0; pick < 20; pick++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart!);
    }
  });
});
