import { randomBytes } from 'node:crypto';

/** Session and pre-session ids: 32 random bytes, base64url (43 characters). */
export function newBrowserId(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a cookie value can be an id this server made; anything else is ignored unread. */
export function isBrowserId(value: string | undefined): value is string {
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);
}
