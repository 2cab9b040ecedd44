import { Agent, createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a load balancer in front of two gateways does: each request goes to the next gateway in
 * turn; one that refuses the connection (killed, restarting) is skipped for the other, as a
 * balancer's health check would. A request a gateway already took is never sent twice.
 */
export class RoundRobinProxy {
  private next = 0;
  private readonly agent = new Agent({ keepAlive: true });

  private constructor(
    private readonly server: Server,
    private readonly upstreams: URL[],
    readonly url: string,
  ) {}

  static async start(upstreams: string[]): Promise<RoundRobinProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new RoundRobinProxy(server, upstreams.map((upstream) => new URL(upstream)), `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    // A client that goes away mid-body (a request timed out) ends only its own exchange.
    server.on('request', (incoming: IncomingMessage, outgoing: ServerResponse) => proxy.handle(incoming, outgoing).catch(() => outgoing.destroy()));
    return proxy;
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const first = this.next++ % this.upstreams.length;
    for (let offset = 0; offset < this.upstreams.length; offset++) {
      const upstream = this.upstreams[(first + offset) % this.upstreams.length]!;
      if (await this.tryUpstream(upstream, incoming, body, outgoing)) return;
    }
    outgoing.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unavailable', detail: 'no gateway took the connection' }));
  }

  /** False only when the gateway refused the connection, so the request can go to the other one. */
  private tryUpstream(upstream: URL, incoming: IncomingMessage, body: Buffer, outgoing: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const upstreamRequest = forward({ host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: upstream.host }, agent: this.agent }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on('error', () => outgoing.destroy());
        resolve(true);
      });
      // A client that goes away takes its request with it, as the gateway expects of a vanished poller.
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) upstreamRequest.destroy();
      });
      upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && !outgoing.headersSent) return resolve(false);
        outgoing.destroy();
        resolve(true);
      });
      upstreamRequest.end(body);
    });
  }
}
