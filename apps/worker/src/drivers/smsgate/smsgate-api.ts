import * as androidSmsGateway from 'android-sms-gateway';
import type { HealthResponse, Message, MessageState, RegisterWebHookRequest, WebHook } from 'android-sms-gateway';
import { FetchHttpClient, SmsGateHttpError, statusOf } from './smsgate-http-client.js';

// The package ships ES module syntax without `"type": "module"`: TypeScript reads it as CommonJS
// (the class one `default` deeper), Node and Vite as ES modules. Take the class from either shape.
const exported = androidSmsGateway.default;
const Client = ('default' in exported ? exported.default : exported) as typeof exported.default;

/**
 * `POST /message` (PostMessageRequest.kt). The library's `Message` still has only the top-level
 * `message` that v1.39 (2025-06) deprecated for `textMessage: {text}`; apps before v1.39 know only
 * `message`, so both shapes are spelled here and this one request bypasses the library's `send`.
 */
export type PostMessageBody = Omit<Message, 'message'> & ({ textMessage: { text: string } } | Pick<Message, 'message'>);

/** One entry of `GET /inbox` (InboxRoutes.kt, v1.59+), newest first. */
export interface InboxItem {
  id: string;
  type: string;
  sender: string;
  contentPreview: string;
  createdAt: string;
}

export interface SmsGateCredentials {
  user: string;
  password: string;
}

/**
 * The app's Local Server at one address (WebService.kt): Basic auth on everything but `/health`.
 * Built on the maintained client library where its calls fit; every call takes the caller's
 * signal and throws `SmsGateHttpError` or `SmsGateUnreachableError`.
 */
export class SmsGateApi {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: SmsGateCredentials,
    private readonly fetchFn: typeof fetch,
    private readonly timeoutMs: number,
  ) {}

  /** `GET /message/{id}`; undefined when the app has no such message (404). */
  async findMessage(id: string, signal: AbortSignal): Promise<MessageState | undefined> {
    let message: MessageState;
    try {
      message = await this.client(signal).getState(id);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
    if (typeof message !== 'object' || message === null || typeof message.state !== 'string') throw new Error(`SMSGate answered GET /message/${id} with something that is not a message`);
    return message;
  }

  /** `POST /message?skipPhoneValidation=true`: smsq already normalised the number to E.164. */
  async postMessage(body: PostMessageBody, signal: AbortSignal): Promise<void> {
    await this.http(signal).post<unknown>(`${this.baseUrl}/message?skipPhoneValidation=true`, body, this.authorization());
  }

  /** `POST /webhooks`: an upsert by `id`, so registering again is harmless. */
  registerWebhook(request: RegisterWebHookRequest, signal: AbortSignal): Promise<WebHook> {
    return this.client(signal).registerWebhook(request);
  }

  /** `GET /inbox?type=SMS&from=…`; a 404 means an app older than v1.59. */
  async inbox(query: { from: Date; limit: number; offset: number }, signal: AbortSignal): Promise<InboxItem[]> {
    const url = new URL(`${this.baseUrl}/inbox`);
    url.searchParams.set('type', 'SMS');
    url.searchParams.set('from', query.from.toISOString());
    url.searchParams.set('limit', String(query.limit));
    url.searchParams.set('offset', String(query.offset));
    const items = await this.http(signal).get<unknown>(url.toString(), this.authorization());
    return Array.isArray(items) ? (items as InboxItem[]) : [];
  }

  /** `GET /health`. The app answers 500 when a check fails (battery under 10 %), with the same body. */
  async health(signal: AbortSignal): Promise<HealthResponse> {
    try {
      return await this.client(signal).getHealth();
    } catch (error) {
      if (error instanceof SmsGateHttpError && isHealthResponse(error.body)) return error.body;
      throw error;
    }
  }

  private client(signal: AbortSignal): InstanceType<typeof Client> {
    return new Client(this.credentials.user, this.credentials.password, this.http(signal), this.baseUrl);
  }

  private http(signal: AbortSignal): FetchHttpClient {
    return new FetchHttpClient(this.fetchFn, this.timeoutMs, signal);
  }

  /** The same header the library builds for its own calls. */
  private authorization(): Record<string, string> {
    return { authorization: `Basic ${Buffer.from(`${this.credentials.user}:${this.credentials.password}`).toString('base64')}` };
  }
}

/** The gateway's base address without trailing slashes, or undefined when it is not an http(s) URL. */
export function gatewayBaseUrl(gatewayUrl: string | null | undefined): string | undefined {
  if (!gatewayUrl) return undefined;
  try {
    const url = new URL(gatewayUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    // The login comes from the worker's settings; fetch refuses URLs that carry one, and logs must not.
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

function isHealthResponse(body: unknown): body is HealthResponse {
  return typeof body === 'object' && body !== null && typeof (body as Record<string, unknown>)['checks'] === 'object';
}
