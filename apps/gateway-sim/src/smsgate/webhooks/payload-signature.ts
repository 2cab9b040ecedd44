import { createHmac } from 'node:crypto';

/** The app's webhook signature: hex HMAC-SHA256, keyed with the signing key, of the raw body followed by the unix-seconds timestamp. */
export function signPayload(signingKey: string, body: string, timestamp: string): string {
  return createHmac('sha256', signingKey).update(body + timestamp).digest('hex');
}
