import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
  /** Resolves if the client went away before it was answered. */
  abandoned: Promise<void>;
}

/** An answer, or `hold`: never answer (a long poll with nothing due, or a gateway that hangs). */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hold';
export type Handler = (request: RecordedRequest) => Answer | Promise<Answer>;

/**
 * A small HTTP server standing in for smsq or a gateway in tests: answers each route with a
 * handler, records every request, and can stop listening and listen again on the same port.
 */
export class StandInServer {
  readonly requests: RecordedRequest[] = [];
  private readonly events = new EventEmitter();
  private port = 0;

  private constructor(
    private readonly server: Server,
    private readonly handlers: Map<string, Handler>,
  ) {}

  static async start(routes: Record<string, Handler> = {}): Promise<StandInServer> {
    const handlers = new Map(Object.entries(routes));
    const server = createServer();
    const standIn = new StandInServer(server, handlers);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://stand-in');
        const text = Buffer.concat(chunks).toString('utf8');
        const recorded: RecordedRequest = {
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          body: text === '' ? undefined : safeJson(text),
          at: Date.now(),
          abandoned: new Promise((resolve) => response.on('close', () => !response.writableEnded && resolve())),
        };
        void standIn.answer(recorded, response);
      });
    });
    await standIn.listen();
    return standIn;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  route(route: string, handler: Handler): void {
    this.handlers.set(route, handler);
  }

  requestsTo(route: string): RecordedRequest[] {
    return this.requests.filter((request) => `${request.method} ${request.path}` === route);
  }

  /** Resolves with the `count`-th request to the route, once it has arrived. */
  waitForRequest(route: string, count = 1): Promise<RecordedRequest> {
    return new Promise((resolve) => {
      const check = (): void => {
        const seen = this.requestsTo(route);
        if (seen.length < count) return;
        this.events.off('request', check);
        resolve(seen[count - 1] as RecordedRequest);
      };
      this.events.on('request', check);
      check();
    });
  }

  /** Refuses connections from now on (and cuts the open ones) until `listenAgain`. */
  async stopListening(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve));
    this.server.closeAllConnections();
    await closed;
  }

  listenAgain(): Promise<void> {
    return this.listen(this.port);
  }

  close(): Promise<void> {
    return this.server.listening ? this.stopListening() : Promise.resolve();
  }

  private listen(port = 0): Promise<void> {
    return new Promise((resolve) => {
      this.server.listen(port, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private async answer(request: RecordedRequest, response: ServerResponse): Promise<void> {
    this.requests.push(request);
    this.events.emit('request');
    const handler = this.handlers.get(`${request.method} ${request.path}`);
    const answer: Answer = handler ? await handler(request) : { status: 404, body: { error: 'not_found', detail: 'no such route in the stand-in' } };
    if (answer === 'hold' || response.destroyed) return;
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(body);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A port nothing listens on: a server's, just closed. */
export async function closedPortUrl(): Promise<string> {
  const server = await StandInServer.start();
  const url = server.url;
  await server.close();
  return url;
}
