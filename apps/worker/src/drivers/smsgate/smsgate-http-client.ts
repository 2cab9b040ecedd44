import { requestSignal } from '@smsq/platform/signals';
import type { HttpClient } from 'android-sms-gateway';
import { describeErrorBody, describeFetchFailure, parseBody } from '../../http/http-answers.js';

/** An answer from the app other than 2xx: its status and body, so 400, 401, 404 and 409 can be told apart. */
export class SmsGateHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const reason = describeErrorBody(body);
    super(`SMSGate answered ${status}${reason ? `: ${reason}` : ''}`);
    this.name = 'SmsGateHttpError';
  }
}

/** No answer at all: refused, reset, timed out. */
export class SmsGateUnreachableError extends Error {
  constructor(cause: unknown, timeoutMs: number) {
    super(`SMSGate unreachable: ${describeFetchFailure(cause, timeoutMs)}`, { cause });
    this.name = 'SmsGateUnreachableError';
  }
}

/**
 * The `HttpClient` the client library asks for, over fetch: each request bounded by `timeoutMs`
 * and by the caller's signal; a non-2xx answer throws `SmsGateHttpError`, an empty body resolves
 * undefined (`DELETE` answers 204).
 */
export class FetchHttpClient implements HttpClient {
  constructor(
    private readonly fetchFn: typeof fetch,
    private readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  get<T>(url: string, headers?: Record<string, string>): Promise<T> {
    return this.request<T>('GET', url, undefined, headers);
  }

  post<T>(url: string, body: unknown, headers?: Record<string, string>): Promise<T> {
    return this.request<T>('POST', url, body, headers);
  }

  put<T>(url: string, body: unknown, headers?: Record<string, string>): Promise<T> {
    return this.request<T>('PUT', url, body, headers);
  }

  patch<T>(url: string, body: unknown, headers?: Record<string, string>): Promise<T> {
    return this.request<T>('PATCH', url, body, headers);
  }

  delete<T>(url: string, headers?: Record<string, string>): Promise<T> {
    return this.request<T>('DELETE', url, undefined, headers);
  }

  private async request<T>(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
    const bounded = requestSignal(this.timeoutMs, this.signal);
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(url, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: bounded.signal,
      });
      text = await response.text();
    } catch (error) {
      throw new SmsGateUnreachableError(error, this.timeoutMs);
    } finally {
      bounded.release();
    }
    const parsed = text === '' ? undefined : parseBody(text);
    if (!response.ok) throw new SmsGateHttpError(response.status, parsed);
    return parsed as T;
  }
}

/** The status of an answer the app gave, or undefined when it gave none. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof SmsGateHttpError ? error.status : undefined;
}

