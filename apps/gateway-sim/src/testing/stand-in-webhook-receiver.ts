import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from './smsgate-phone.js';

export interface WebhookCall {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Json;
}

/** A webhook endpoint as a test needs it: records each POST, and answers the statuses it is given (then 200). */
export class StandInWebhookReceiver {
  readonly calls: WebhookCall[] = [];
  /** Statuses for the next calls, in order; 200 once they run out. */
  readonly statuses: number[] = [];
  private waiting: Array<() => void> = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<StandInWebhookReceiver> {
    const server = createServer();
    const receiver = new StandInWebhookReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        receiver.calls.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody) as unknown });
        response.writeHead(receiver.statuses.shift() ?? 200).end();
        receiver.waiting.splice(0).forEach((wake) => wake());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The calls once `count` have arrived, or a failure past the deadline. */
  async waitForCalls(count: number, deadlineMs = 5_000): Promise<WebhookCall[]> {
    const deadline = Date.now() + deadlineMs;
    while (this.calls.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.calls.length} of ${count} webhook call(s) within ${deadlineMs} ms: ${JSON.stringify(this.calls.map((call) => call.body))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.calls;
  }

  /** The payloads of the calls for `event`, in arrival order. */
  payloadsOf(event: string): Json[] {
    return this.calls.filter((call) => call.body.event === event).map((call) => call.body.payload);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
