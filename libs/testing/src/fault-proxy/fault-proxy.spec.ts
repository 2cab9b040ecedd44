import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../eventually.js';
import { FaultProxies, throughProxy } from './fault-proxy.js';

/** Everything a client socket saw, in order. */
interface Client {
  socket: Socket;
  received: () => Buffer;
  events: string[];
  error?: NodeJS.ErrnoException;
}

function open(port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    const chunks: Buffer[] = [];
    const client: Client = { socket, received: () => Buffer.concat(chunks), events: [] };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => client.events.push('end'));
    socket.on('close', () => client.events.push('close'));
    socket.on('error', (error) => {
      client.error = error;
      client.events.push(`error ${(error as NodeJS.ErrnoException).code}`);
      reject(error);
    });
    socket.once('connect', () => resolve(client));
  });
}

async function connectionError(port: number): Promise<string | undefined> {
  return open(port).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code,
  );
}

/** Writes `text` and waits for as many bytes to come back; what came back. */
async function echo(client: Client, text: string, timeoutMs = 2_000): Promise<string> {
  const before = client.received().length;
  client.socket.write(text);
  await until(() => client.received().length >= before + Buffer.byteLength(text), { timeoutMs, intervalMs: 2 });
  return client.received().subarray(before).toString();
}

/** A TCP echo server whose open sockets the test can end or reset. */
async function echoServer(): Promise<{ port: number; stop: (how: 'end' | 'reset') => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('echo server has no port');
  return {
    port: address.port,
    stop: async (how) => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) {
        if (how === 'reset') socket.resetAndDestroy();
        else socket.destroy();
      }
      await closed;
    },
  };
}

describe(FaultProxies.name, () => {
  let sut: FaultProxies;
  let upstream: Awaited<ReturnType<typeof echoServer>>;
  const clients: Client[] = [];
  let proxies = 0;

  /** A fresh proxy in front of the echo server, so that no test sees another's fault. */
  async function proxy(to = { host: '127.0.0.1', port: upstream.port }): Promise<{ name: string; port: number; client: () => Promise<Client> }> {
    const name = `echo-${proxies++}`;
    const port = await sut.add(name, to);
    return {
      name,
      port,
      client: async () => {
        const client = await open(port);
        clients.push(client);
        return client;
      },
    };
  }

  beforeAll(async () => {
    sut = await FaultProxies.start();
    upstream = await echoServer();
  });

  afterAll(async () => {
    for (const { socket } of clients) socket.destroy();
    await sut.close();
    await upstream.stop('end');
  });

  it('passes a large payload through intact, both ways', async () => {
    const { client } = await proxy();
    const payload = randomBytes(5 * 1024 * 1024);
    const sender = await client();
    sender.socket.write(payload);
    await until(() => sender.received().length >= payload.length, { timeoutMs: 10_000, intervalMs: 10 });
    expect(sender.received().equals(payload)).toBe(true);
  });

  it('delays every chunk by mean ± jitter each way, keeps byte order, and drops the delay at heal', async () => {
    const { name, client } = await proxy();
    const sender = await client();
    // Long enough that the healed round trip below, a few ms on an idle machine, stays under it on a busy one.
    await sut.fault(name, { kind: 'latency', meanMs: 500, jitterMs: 20 });

    const started = performance.now();
    // About a second by design, through two timers in the proxy's process: a busy machine wakes them late.
    expect(await echo(sender, 'ping', 10_000)).toBe('ping');
    // Out through the proxy and back through it: at least (mean - jitter) twice, less a millisecond of clock rounding each way.
    const shortestDelayed = 2 * (500 - 20) - 2;
    expect(performance.now() - started).toBeGreaterThanOrEqual(shortestDelayed);

    await sut.fault(name, { kind: 'latency', meanMs: 15, jitterMs: 15 });
    const sent = Array.from({ length: 200 }, (_, index) => `${index};`);
    const before = sender.received().length;
    for (const piece of sent) {
      sender.socket.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const expected = sent.join('');
    await until(() => sender.received().length >= before + expected.length, { timeoutMs: 3_000, intervalMs: 5 });
    expect(sender.received().subarray(before).toString()).toBe(expected);

    await sut.fault(name, { kind: 'latency', meanMs: 500, jitterMs: 20 });
    await sut.heal(name);
    const healed = performance.now();
    expect(await echo(sender, 'pong')).toBe('pong');
    expect(performance.now() - healed).toBeLessThan(shortestDelayed);
  });

  it('silences open and new connections without FIN or RST, and keeps them dead after heal while new ones pass', async () => {
    const { name, client } = await proxy();
    const silenced = await client();
    expect(await echo(silenced, 'before')).toBe('before');

    await sut.fault(name, { kind: 'silent' });
    silenced.socket.write('lost');
    const bornSilent = await client();
    bornSilent.socket.write('also lost');
    // Silence is the behaviour under test, so the test has to watch it for a while.
    await sleep(1_500);
    expect(silenced.received().toString()).toBe('before');
    expect(silenced.events).toEqual([]);
    expect(bornSilent.received().length).toBe(0);
    expect(bornSilent.events).toEqual([]);
    expect(await sut.connections(name)).toBe(2);

    await sut.heal(name);
    const fresh = await client();
    silenced.socket.write('still lost');
    bornSilent.socket.write('still lost');
    expect(await echo(fresh, 'after heal')).toBe('after heal');
    await sleep(300);
    expect(silenced.received().toString()).toBe('before');
    expect(bornSilent.received().length).toBe(0);
    expect([...silenced.events, ...bornSilent.events]).toEqual([]);
    expect(await sut.connections(name)).toBe(3);

    bornSilent.socket.end();
    await until(async () => (await sut.connections(name)) === 2, { timeoutMs: 10_000 });
  });

  it('resets every open connection once, then lets new ones through', async () => {
    const { name, client } = await proxy();
    const victim = await client();
    expect(await sut.connections(name)).toBe(1);
    expect(await echo(victim, 'hello')).toBe('hello');

    await sut.fault(name, { kind: 'reset' });
    await until(() => victim.events.includes('close'), { timeoutMs: 10_000 });
    expect(victim.error?.code).toBe('ECONNRESET');

    const next = await client();
    expect(await echo(next, 'again')).toBe('again');
  });

  it('refuses new connections until heal, on the same port, while an open one keeps working', async () => {
    const { name, port, client } = await proxy();
    // Not used yet: a client that saw its connect before fault() counts as open, even if the proxy had not accepted it.
    const survivor = await client();

    await sut.fault(name, { kind: 'refuse' });
    expect(await connectionError(port)).toBe('ECONNREFUSED');
    expect(await echo(survivor, 'during')).toBe('during');

    await sut.heal(name);
    const next = await client();
    expect(next.socket.remotePort).toBe(port);
    expect(await echo(next, 'healed')).toBe('healed');
    expect(await echo(survivor, 'after')).toBe('after');
    expect(survivor.events).toEqual([]);
  });

  it.each([
    { how: 'end' as const, seen: ['end', 'close'], code: undefined },
    { how: 'reset' as const, seen: ['error ECONNRESET', 'close'], code: 'ECONNRESET' },
  ])('passes the upstream going away ($how) on to the client', async ({ how, seen, code }) => {
    const server = await echoServer();
    const { client } = await proxy({ host: '127.0.0.1', port: server.port });
    const victim = await client();
    expect(await echo(victim, 'hello')).toBe('hello');

    await server.stop(how);
    await until(() => victim.events.includes('close'), { timeoutMs: 10_000 });
    expect(victim.events).toEqual(seen);
    expect(victim.error?.code).toBe(code);
  });

  it('closes a connection promptly when the upstream refuses it', async () => {
    const server = await echoServer();
    await server.stop('end');
    const { port } = await proxy({ host: '127.0.0.1', port: server.port });
    const orphan = connect({ host: '127.0.0.1', port });
    let code: string | undefined;
    orphan.on('error', (error: NodeJS.ErrnoException) => (code = error.code));
    // The proxy accepts, then resets as soon as the upstream refuses: sometimes before the client even saw its connect.
    await until(() => orphan.closed, { timeoutMs: 5_000 });
    expect(code).toBe('ECONNRESET');
  });

  it('carries a real Redis conversation', async () => {
    const redis = new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
    const { client } = await proxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    expect(await echo(await client(), 'PING\r\n')).toBe('+PONG\r\n');
  });

  it('closes a removed proxy: its port refuses, and every connection through it ends, a silenced one too', async () => {
    const { name, port, client } = await proxy();
    const silenced = await client();
    await sut.fault(name, { kind: 'silent' });

    await sut.remove(name);

    await until(() => silenced.events.includes('close'), { timeoutMs: 10_000 });
    expect(await connectionError(port)).toBe('ECONNREFUSED');
    await expect(sut.connections(name)).rejects.toThrow(`no proxy named ${name}`);
  });

  it('answers with an error for a proxy it does not know', async () => {
    await expect(sut.heal('nobody')).rejects.toThrow('no proxy named nobody');
  });
});

describe(throughProxy.name, () => {
  it.each([
    ['postgresql://u:p@db.internal:5432/smsq?schema=dispatch', 'postgresql://u:p@127.0.0.1:40001/smsq?schema=dispatch'],
    ['postgres://db.internal/smsq', 'postgres://127.0.0.1:40001/smsq'],
    ['amqp://guest:guest@rabbit:5672/%2F', 'amqp://guest:guest@127.0.0.1:40001/%2F'],
    ['amqp://localhost', 'amqp://127.0.0.1:40001'],
    ['redis://:secret@redis.internal:6379/2', 'redis://:secret@127.0.0.1:40001/2'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:40001'],
  ])('%s → %s', (url, proxied) => {
    expect(throughProxy(url, 40_001)).toBe(proxied);
  });
});
