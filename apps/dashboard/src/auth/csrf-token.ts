import { constantTimeEqual } from '@smsq/platform';
import { createHmac } from 'node:crypto';

/**
 * The CSRF token of a browser: an HMAC of its session id (or, before sign-in, its pre-session id)
 * under the server's secret. A page of another site can neither read it nor compute it, and the
 * id it is tied to is an httpOnly cookie, so the token cannot be planted either.
 */
export function csrfTokenFor(secret: string, browserId: string): string {
  return createHmac('sha256', secret).update(`csrf:${browserId}`).digest('base64url');
}

export function isValidCsrfToken(secret: string, browserId: string | undefined, presented: unknown): boolean {
  if (browserId === undefined || typeof presented !== 'string') return false;
  return constantTimeEqual(presented, csrfTokenFor(secret, browserId));
}
