import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InboundCall {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** smsq's `POST /smsapi/inbound` as a test needs it: records each call and answers what it is told. */
export class StandInSmsq {
  readonly calls: InboundCall[] = [];
  answer: { status: number; body: unknown } = { status: 201, body: { ok: true, stored: 1, duplicates: 0 } };
  private waiting: Array<() => void> = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<StandInSmsq> {
    const server = createServer();
    const standIn = new StandInSmsq(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const known = request.method === 'POST' && request.url === '/smsapi/inbound';
        if (known) standIn.calls.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
        const { status, body } = known ? standIn.answer : { status: 404, body: { error: 'not_found', detail: 'not found' } };
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
        standIn.waiting.splice(0).forEach((wake) => wake());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` calls have arrived. */
  async waitForCalls(count: number): Promise<InboundCall[]> {
    while (this.calls.length < count) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.calls;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
