/**
 * The fetch client for the dashboard's JSON API under /api. Same-origin cookies carry the session;
 * every state-changing request carries the CSRF token from GET /api/auth/session.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string | null,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let csrfToken = '';
let unauthorizedListener: (() => void) | null = null;

/** Set by the session provider whenever it (re)reads the session. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when an API call answers 401 (the session expired or was signed out elsewhere). */
export function onUnauthorized(listener: (() => void) | null): void {
  unauthorizedListener = listener;
}

export interface RequestOptions {
  /** Do not notify the session on 401 (sign-in itself answers 401 for wrong credentials). */
  quiet401?: boolean;
  signal?: AbortSignal;
}

export async function request<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let json: unknown = undefined;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!response.ok) {
    const payload = (json ?? {}) as { error?: unknown; detail?: unknown; message?: unknown };
    const code = typeof payload.error === 'string' ? payload.error : `http_${response.status}`;
    const detail = typeof payload.detail === 'string' ? payload.detail : typeof payload.message === 'string' ? payload.message : null;
    if (response.status === 401 && !options.quiet401) unauthorizedListener?.();
    throw new ApiError(response.status, code, detail);
  }
  return json as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: (path: string) => request<void>('DELETE', path),
};
