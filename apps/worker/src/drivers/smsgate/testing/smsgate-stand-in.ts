import { createHmac, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for SMS Gateway for Android's Local Server, as its source answers
 * (modules/localserver/**): Basic auth except on `/health`; `POST /message` → 202, 409 on a known
 * id, 400 on a bad shape; `GET /message/{id}` → the message or 404; `POST /webhooks` → 201, 400 for
 * a URL that is neither https nor http://127.0.0.1; `GET /inbox` newest first. `app: 'before-1.39'`
 * answers as the apps before v1.39 did: `message` only (500 without it), a known id silently
 * taken again (202), no `/inbox`.
 */
export interface StandInOptions {
  user?: string;
  password?: string;
  app?: 'current' | 'before-1.39';
  /** The key the app signs its webhooks with. */
  signingKey?: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

interface PostedMessage {
  id?: string;
  message?: unknown;
  textMessage?: { text?: unknown };
  phoneNumbers: string[];
}

interface PostedWebhook {
  id: string;
  event: string;
  url: unknown;
}

export interface StoredMessage {
  id: string;
  state: string;
  recipients: Array<{ phoneNumber: string; state: string; error: string | null }>;
  /** What was sent; v1.39+ shows it as `textMessage`. */
  text?: string;
}

export interface InboxEntry {
  /** The signed 32-bit hash the app names a received text by. */
  hash: number;
  sender: string;
  text: string;
  createdAt: Date;
}

type Answer = { status: number; body?: unknown };

export class SmsGateStandIn {
  readonly calls: RecordedCall[] = [];
  readonly messages = new Map<string, StoredMessage>();
  readonly inbox: InboxEntry[] = [];
  readonly webhooks = new Map<string, { id: string; event: string; url: string }>();
  /** Answers a `POST /message` before the stand-in does (a race, an outage); undefined lets it answer. */
  beforePost: ((body: PostedMessage) => Answer | undefined) | undefined;
  health: Answer = { status: 200, body: { status: 'pass', version: '1.68.0', releaseId: 68, checks: {} } };
  /** While true, every connection is cut before an answer. */
  down = false;
  private readonly user: string;
  private readonly password: string;

  private constructor(
    private readonly server: Server,
    readonly options: StandInOptions,
  ) {
    this.user = options.user ?? 'sms';
    this.password = options.password ?? 'gate-password';
  }

  static async start(options: StandInOptions = {}): Promise<SmsGateStandIn> {
    const server = createServer();
    const standIn = new SmsGateStandIn(server, options);
    server.on('request', (request, response) => void standIn.receive(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  callsTo(method: string, path: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method && call.path === path);
  }

  /** Puts a message on the phone as an earlier attempt would have. */
  store(id: string, recipient: string, state = 'Pending', text?: string): void {
    this.messages.set(id, { id, state, recipients: [{ phoneNumber: recipient, state, error: null }], ...(text === undefined ? {} : { text }) });
  }

  /** The phone settles a message, and tells the webhooks registered for it. */
  async settle(id: string, state: 'Processed' | 'Sent' | 'Delivered' | 'Failed' | 'Cancelled', error: string | null = null, notify = false): Promise<void> {
    const message = this.messages.get(id);
    if (message === undefined) throw new Error(`no message ${id} on the stand-in`);
    message.state = state;
    for (const recipient of message.recipients) Object.assign(recipient, { state, error });
    const event = { Sent: 'sms:sent', Delivered: 'sms:delivered', Failed: 'sms:failed' }[state as string];
    if (notify && event !== undefined) await this.emit(event, { messageId: id, recipient: message.recipients[0]?.phoneNumber, phoneNumber: message.recipients[0]?.phoneNumber });
  }

  /** An SMS reaches the phone: kept in its inbox and, when `webhook`, sent to the `sms:received` webhooks. */
  async receiveSms(sender: string, text: string, options: { at?: Date; webhook?: boolean } = {}): Promise<InboxEntry> {
    const entry: InboxEntry = { hash: randomInt(-2_147_483_648, 2_147_483_647), sender, text, createdAt: options.at ?? new Date() };
    this.inbox.push(entry);
    if (options.webhook ?? true) {
      await this.emit('sms:received', {
        messageId: (entry.hash >>> 0).toString(16),
        message: text,
        sender,
        phoneNumber: sender,
        recipient: null,
        simNumber: 1,
        receivedAt: entry.createdAt.toISOString().replace('Z', '+00:00'),
      });
    }
    return entry;
  }

  /** Posts an event to each webhook registered for it, signed as the app signs; answers their statuses. */
  async emit(event: string, payload: Record<string, unknown>, sign?: { key?: string; timestamp?: number; signature?: string }): Promise<number[]> {
    const statuses: number[] = [];
    for (const webhook of this.webhooks.values()) {
      if (webhook.event !== event) continue;
      const body = JSON.stringify({ id: `evt-${randomInt(1e9)}`, webhookId: webhook.id, event, deviceId: 'stand-in-device', payload });
      const timestamp = String(sign?.timestamp ?? Math.floor(Date.now() / 1000));
      const key = sign?.key ?? this.options.signingKey;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (key !== undefined) {
        headers['x-timestamp'] = timestamp;
        headers['x-signature'] = sign?.signature ?? createHmac('sha256', key).update(body + timestamp).digest('hex');
      }
      const response = await fetch(webhook.url, { method: 'POST', headers, body });
      statuses.push(response.status);
    }
    return statuses;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }

  private async receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const text = Buffer.concat(chunks).toString('utf8');
    const call: RecordedCall = { method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: request.headers, body: text === '' ? undefined : JSON.parse(text) };
    this.calls.push(call);
    if (this.down) return void request.socket.destroy();
    const answer = this.answer(call);
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }

  private answer(call: RecordedCall): Answer {
    const { method, path } = call;
    if (method === 'GET' && path === '/health') return this.health;
    if (call.headers.authorization !== `Basic ${Buffer.from(`${this.user}:${this.password}`).toString('base64')}`) return { status: 401 };
    const current = this.options.app !== 'before-1.39';
    const messagePath = /^\/(message|messages)(?:\/([^/]+))?$/.exec(path);
    if (messagePath && (current || messagePath[1] === 'message')) {
      const id = messagePath[2];
      if (method === 'POST' && id === undefined) return this.post(call.body as PostedMessage, current);
      if (method === 'GET' && id !== undefined) {
        const message = this.messages.get(id);
        if (message === undefined) return { status: 404 };
        const { text, ...shown } = message;
        const content = current ? { textMessage: text === undefined ? null : { text } } : {};
        return { status: 200, body: { ...shown, ...content, deviceId: 'stand-in-device', isHashed: false, isEncrypted: false, states: {} } };
      }
    }
    if (method === 'POST' && (path === '/webhooks' || path === '/webhook')) {
      const webhook = call.body as PostedWebhook;
      const url = String(webhook.url);
      if (!url.startsWith('https://') && !url.startsWith('http://127.0.0.1')) return { status: 400, body: { message: 'url must start with https:// or http://127.0.0.1' } };
      this.webhooks.set(webhook.id, { id: webhook.id, event: webhook.event, url });
      return { status: 201, body: { ...webhook, deviceId: null, source: 'Local' } };
    }
    if (method === 'GET' && path === '/inbox' && current) return this.listInbox(call.query);
    return { status: 404 };
  }

  private post(body: PostedMessage, current: boolean): Answer {
    const early = this.beforePost?.(body);
    if (early !== undefined) return early;
    const text: unknown = current ? (body.textMessage?.text ?? body.message) : body.message;
    if (typeof text !== 'string') {
      return current
        ? { status: 400, body: { message: 'Must specify exactly one of: textMessage, dataMessage, or message' } }
        : { status: 500, body: { message: "Attempt to invoke virtual method 'int java.lang.String.length()' on a null object reference" } };
    }
    const id = String(body.id);
    if (this.messages.has(id)) return current ? { status: 409, body: { message: `Message with id ${id} already exists` } } : { status: 202, body: { id, state: 'Pending' } };
    this.store(id, body.phoneNumbers[0], 'Pending', text);
    return { status: 202, body: { ...this.messages.get(id) } };
  }

  private listInbox(query: URLSearchParams): Answer {
    const from = query.has('from') ? Date.parse(query.get('from') as string) : 0;
    const limit = Number(query.get('limit') ?? 50);
    const offset = Number(query.get('offset') ?? 0);
    const items = this.inbox
      .filter((entry) => entry.createdAt.getTime() >= from)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(offset, offset + limit)
      .map((entry) => ({ id: `text:${entry.hash}`, type: 'SMS', sender: entry.sender, recipient: null, simNumber: 1, contentPreview: entry.text, createdAt: entry.createdAt.toISOString(), attachments: [] }));
    return { status: 200, body: items };
  }
}
