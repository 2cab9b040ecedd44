import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DashboardConfig } from '../config/dashboard-config.js';
import { isBrowserId, newBrowserId } from './browser-id.js';
import { parseCookies, serializeCookie } from './cookies.js';

/** The names of the session and pre-session cookies of one namespace (two instances on one host stay apart). */
export function cookieNames(namespace: string): { session: string; preSession: string } {
  return { session: `${namespace}_sid`, preSession: `${namespace}_pre` };
}

/** The ids a request's cookies carry, each only when well-formed. */
export function browserIdsOf(request: Pick<FastifyRequest, 'headers'>, namespace: string): { sessionId?: string; preSessionId?: string } {
  const cookies = parseCookies(request.headers.cookie);
  const names = cookieNames(namespace);
  const sessionId = cookies.get(names.session);
  const preSessionId = cookies.get(names.preSession);
  return { sessionId: isBrowserId(sessionId) ? sessionId : undefined, preSessionId: isBrowserId(preSessionId) ? preSessionId : undefined };
}

/** The id the CSRF token of this request is tied to: the session's when there is one, else the pre-session's. */
export function csrfBindingOf(request: Pick<FastifyRequest, 'headers'>, namespace: string): string | undefined {
  const ids = browserIdsOf(request, namespace);
  return ids.sessionId ?? ids.preSessionId;
}

/** Sets and clears the dashboard's cookies; Secure whenever the request came over HTTPS. */
@Injectable()
export class BrowserCookies {
  private readonly names: ReturnType<typeof cookieNames>;

  constructor(private readonly config: DashboardConfig) {
    this.names = cookieNames(config.namespace);
  }

  ids(request: FastifyRequest): { sessionId?: string; preSessionId?: string } {
    return browserIdsOf(request, this.config.namespace);
  }

  setSession(request: FastifyRequest, reply: FastifyReply, sessionId: string): void {
    reply.header('set-cookie', serializeCookie(this.names.session, sessionId, { secure: isHttps(request) }));
  }

  clearSession(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('set-cookie', serializeCookie(this.names.session, '', { secure: isHttps(request), maxAgeS: 0 }));
  }

  /** The browser's pre-session id, made and set now if it has none. */
  ensurePreSession(request: FastifyRequest, reply: FastifyReply): string {
    const existing = this.ids(request).preSessionId;
    if (existing) return existing;
    const id = newBrowserId();
    reply.header('set-cookie', serializeCookie(this.names.preSession, id, { secure: isHttps(request) }));
    return id;
  }
}

export function isHttps(request: Pick<FastifyRequest, 'protocol'>): boolean {
  return request.protocol === 'https';
}
