import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reasonOf } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import { signatureProblem } from './webhook-signature.js';

/** Where the app posts its events, under the public URL. */
export const WEBHOOK_PATH = '/smsgate/events';

/** SMS events are a few hundred bytes; nothing this worker registers for comes near. */
const MAX_BODY_BYTES = 256 * 1024;

/** One event as the app posts it (webhooks/domain/WebHookEventDTO.kt); `payload` per payload/SmsEventPayload.kt. */
export interface SmsGateWebhookEvent {
  id: string;
  webhookId: string;
  event: string;
  deviceId: string;
  payload: Record<string, unknown>;
}

export interface WebhookReceiverOptions {
  listenHost: string;
  listenPort: number;
  /** When set, events must carry a valid `X-Signature`/`X-Timestamp`. */
  signingKey?: string;
  log: WorkerLog;
  /** Called before the answer; throwing makes the answer 500, so the app sends the event again. */
  onEvent: (event: SmsGateWebhookEvent) => void;
}

/**
 * Receives the app's webhooks: answers at once (the app waits at most 30 s and retries non-2xx),
 * after the event is handed to `onEvent`, which only records it.
 */
export class WebhookReceiver {
  private constructor(private readonly server: Server) {}

  static async start(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
    const server = createServer((request, response) => void receive(request, response, options));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.listenPort, options.listenHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new WebhookReceiver(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }
}

async function receive(request: IncomingMessage, response: ServerResponse, options: WebhookReceiverOptions): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://receiver').pathname;
  if (path !== WEBHOOK_PATH) return answer(response, 404, { error: 'not_found' });
  if (request.method !== 'POST') return answer(response, 405, { error: 'method_not_allowed' });
  const body = await readBody(request);
  if (body === undefined) return answer(response, 413, { error: 'payload_too_large' });
  if (options.signingKey !== undefined) {
    const problem = signatureProblem(options.signingKey, body, header(request, 'x-signature'), header(request, 'x-timestamp'));
    if (problem !== undefined) {
      options.log.warn('smsgate webhook refused', { reason: problem });
      return answer(response, 401, { error: 'unauthorized' });
    }
  }
  const event = parseEvent(body);
  if (event === undefined) return answer(response, 400, { error: 'invalid_request' });
  try {
    options.onEvent(event);
  } catch (error) {
    options.log.error('smsgate webhook not recorded', { event: event.event, reason: reasonOf(error) });
    return answer(response, 500, { error: 'internal_error' });
  }
  answer(response, 200, { ok: true });
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    request.on('error', () => resolve(undefined));
  });
}

function parseEvent(body: Buffer): SmsGateWebhookEvent | undefined {
  try {
    const event = JSON.parse(body.toString('utf8')) as Partial<SmsGateWebhookEvent>;
    return typeof event.event === 'string' && typeof event.payload === 'object' && event.payload !== null ? (event as SmsGateWebhookEvent) : undefined;
  } catch {
    return undefined;
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
