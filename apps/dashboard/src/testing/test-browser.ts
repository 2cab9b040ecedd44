import type { SessionAnswer } from '@smsq/dashboard-api';

export interface BrowserResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** A browser as far as the API can tell: a cookie jar, and the CSRF token it last got from GET /api/auth/session. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(private readonly baseUrl: string) {}

  /** Fetches the session (and with it a CSRF token), as the front end does on load. */
  async session(): Promise<SessionAnswer> {
    const response = await this.request('GET', '/api/auth/session');
    return this.remember(response.body as SessionAnswer);
  }

  async signUp(email: string, password = 'correct horse battery'): Promise<BrowserResponse> {
    if (!this.csrfToken) await this.session();
    const response = await this.request('POST', '/api/auth/signup', { email, password });
    if (response.status === 201) this.remember(response.body as SessionAnswer);
    return response;
  }

  async signIn(email: string, password: string): Promise<BrowserResponse> {
    if (!this.csrfToken) await this.session();
    const response = await this.request('POST', '/api/auth/signin', { email, password });
    if (response.status === 200) this.remember(response.body as SessionAnswer);
    return response;
  }

  get(path: string): Promise<BrowserResponse> {
    return this.request('GET', path);
  }

  /** A state-changing request with this browser's CSRF token (or the one given, or none with `null`). */
  send(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, csrfToken: string | null | undefined = this.csrfToken): Promise<BrowserResponse> {
    return this.request(method, path, body, csrfToken ?? '');
  }

  async request(method: string, path: string, body?: unknown, csrfToken: string | undefined = this.csrfToken, extraHeaders: Record<string, string> = {}): Promise<BrowserResponse> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (csrfToken && method !== 'GET') headers['x-csrf-token'] = csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (attributes.some((attribute) => attribute.trim() === 'Max-Age=0')) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  private remember(answer: SessionAnswer): SessionAnswer {
    this.csrfToken = answer.csrfToken;
    return answer;
  }
}
