// TCP proxies that fail on command, in a process of their own so that the traffic they carry
// never waits on a busy test's event loop. fault-proxy.ts starts it and speaks to it over IPC:
// { id, command, ...arguments } in, { id, result } or { id, error } back.
import net from 'node:net';

const END = Symbol('end');

/** @type {Map<string, { name: string, upstream: { host: string, port: number }, port: number, server: net.Server | null, fault: any, connections: Set<any> }>} */
const proxies = new Map();

const commands = {
  async add({ name, upstream }) {
    if (proxies.has(name)) throw new Error(`a proxy named ${name} already exists`);
    const proxy = { name, upstream, port: 0, server: null, fault: null, connections: new Set() };
    await listen(proxy);
    proxies.set(name, proxy);
    return proxy.port;
  },
  async fault({ name, fault }) {
    const proxy = find(name);
    if (!['latency', 'silent', 'reset', 'refuse'].includes(fault?.kind)) throw new Error(`unknown fault ${JSON.stringify(fault)}`);
    // Before heal, so that chunks still held back by a latency fault die with their connection rather than arrive.
    if (fault.kind === 'silent') for (const connection of proxy.connections) silence(connection);
    if (fault.kind === 'reset') for (const connection of proxy.connections) reset(connection);
    await heal(proxy);
    if (fault.kind === 'reset') return;
    proxy.fault = fault;
    if (fault.kind === 'refuse') {
      // Closing the listening socket is what makes the kernel answer SYNs with RST, i.e. ECONNREFUSED.
      proxy.server?.close();
      proxy.server = null;
    }
  },
  async heal({ name }) {
    await heal(find(name));
  },
  connections({ name }) {
    return [...find(name).connections].filter((connection) => connection.open).length;
  },
  /** The proxy is gone: its port closes and every connection through it ends, silenced ones too. */
  async remove({ name }) {
    const proxy = find(name);
    proxies.delete(name);
    proxy.server?.close();
    for (const connection of proxy.connections) {
      connection.directions.forEach(cancel);
      connection.upstream?.destroy();
      connection.client.destroy();
    }
  },
};

function find(name) {
  const proxy = proxies.get(name);
  if (!proxy) throw new Error(`no proxy named ${name}`);
  return proxy;
}

function listen(proxy) {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ allowHalfOpen: true }, (client) => accept(proxy, client));
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: proxy.port }, () => {
      server.off('error', reject);
      server.on('error', (error) => console.error(`fault proxy ${proxy.name}:`, error));
      proxy.server = server;
      proxy.port = server.address().port;
      resolve();
    });
  });
}

async function heal(proxy) {
  const fault = proxy.fault;
  proxy.fault = null;
  if (fault?.kind === 'latency') for (const connection of proxy.connections) connection.directions.forEach(flush);
  if (!proxy.server) await listen(proxy);
}

function accept(proxy, client) {
  client.setNoDelay(true);
  // `open`: the client has neither closed nor half-closed its side; what connections() counts.
  const connection = { client, upstream: null, directions: [], silenced: false, open: true };
  proxy.connections.add(connection);
  client.on('close', () => proxy.connections.delete(connection));
  if (proxy.fault?.kind === 'silent') {
    // Like a SYN through a NAT with a stale mapping that still answers: nothing ever reaches the server.
    connection.silenced = true;
    client.on('data', () => {});
    client.on('end', () => clientGoneWhileSilent(connection));
    client.on('error', () => clientGoneWhileSilent(connection));
    return;
  }
  const upstream = net.connect({ ...proxy.upstream, allowHalfOpen: true });
  upstream.setNoDelay(true);
  connection.upstream = upstream;
  connection.directions = [pipe(proxy, connection, client, upstream), pipe(proxy, connection, upstream, client)];
}

/** One direction of a connection: `from`'s bytes, end and errors passed on to `to`, delayed when the proxy says so. */
function pipe(proxy, connection, from, to) {
  const direction = { from, to, queue: [], lastDueAt: 0, timer: null, awaitingDrain: false };
  const fromClient = from === connection.client;
  from.on('data', (chunk) => {
    if (!connection.silenced) forward(proxy, direction, chunk);
  });
  from.on('end', () => {
    if (fromClient) connection.open = false;
    if (!connection.silenced) forward(proxy, direction, END);
    else if (fromClient) clientGoneWhileSilent(connection);
    else from.destroy();
  });
  from.on('error', () => {
    if (fromClient) connection.open = false;
    if (connection.silenced) {
      if (fromClient) clientGoneWhileSilent(connection);
      return;
    }
    connection.directions.forEach(cancel);
    from.destroy();
    to.resetAndDestroy();
  });
  return direction;
}

function forward(proxy, direction, chunk) {
  const delay = proxy.fault?.kind === 'latency' ? Math.max(0, proxy.fault.meanMs + (Math.random() * 2 - 1) * proxy.fault.jitterMs) : 0;
  if (delay === 0 && direction.queue.length === 0) return send(direction, chunk);
  // A chunk never overtakes the one before it, however short its own delay.
  direction.lastDueAt = Math.max(direction.lastDueAt, Date.now() + delay);
  direction.queue.push({ chunk, dueAt: direction.lastDueAt });
  schedule(direction);
}

function schedule(direction) {
  if (direction.timer || direction.queue.length === 0) return;
  direction.timer = setTimeout(() => {
    direction.timer = null;
    while (direction.queue.length > 0 && direction.queue[0].dueAt <= Date.now()) send(direction, direction.queue.shift().chunk);
    schedule(direction);
  }, Math.max(0, direction.queue[0].dueAt - Date.now()));
}

function send(direction, chunk) {
  if (chunk === END) return void direction.to.end();
  if (!direction.to.write(chunk) && !direction.awaitingDrain) {
    direction.awaitingDrain = true;
    direction.from.pause();
    direction.to.once('drain', () => {
      direction.awaitingDrain = false;
      direction.from.resume();
    });
  }
}

function flush(direction) {
  clearTimeout(direction.timer);
  direction.timer = null;
  for (const { chunk } of direction.queue.splice(0)) send(direction, chunk);
}

function cancel(direction) {
  clearTimeout(direction.timer);
  direction.timer = null;
  direction.queue.length = 0;
}

function silence(connection) {
  connection.silenced = true;
  for (const direction of connection.directions) {
    cancel(direction);
    // Keep reading (and dropping) so that neither peer is held up by a full buffer it could notice.
    direction.from.resume();
  }
}

/** The client hung up on a silenced connection: it is no longer counted, and its server side is let go. It never hears back. */
function clientGoneWhileSilent(connection) {
  connection.open = false;
  connection.upstream?.destroy();
}

function reset(connection) {
  connection.directions.forEach(cancel);
  connection.upstream?.destroy();
  connection.client.resetAndDestroy();
}

if (!process.send) {
  console.error('fault-proxy-server.mjs takes its commands over IPC: start it with child_process.fork (see fault-proxy.ts).');
  process.exit(2);
}
process.on('message', async ({ id, command, ...options }) => {
  // Connections whose handshake finished before the command was sent are accepted in this same poll phase: let them in first.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    if (!Object.hasOwn(commands, command)) throw new Error(`unknown command ${command}`);
    process.send({ id, result: await commands[command](options) });
  } catch (error) {
    process.send({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
// The test process is gone (or closed us): so are the proxies.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
