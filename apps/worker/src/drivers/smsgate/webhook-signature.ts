import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '@smsq/platform/crypto';

/** Older or newer than this against the worker's clock, a signed event is refused (a replay, or a clock far off). */
export const MAX_TIMESTAMP_SKEW_S = 300;

/**
 * The app's signature (plugins/PayloadSingingPlugin.kt): `X-Signature` is the hex HMAC-SHA256,
 * keyed with the signing key, of the raw body followed by `X-Timestamp` (unix seconds).
 */
export function signWebhook(signingKey: string, rawBody: Buffer | string, timestamp: string): string {
  return createHmac('sha256', signingKey).update(rawBody).update(timestamp).digest('hex');
}

/** Why the event must be refused, or undefined when its signature holds. */
export function signatureProblem(signingKey: string, rawBody: Buffer, signature: string | undefined, timestamp: string | undefined, nowMs = Date.now()): string | undefined {
  if (signature === undefined || timestamp === undefined) return 'no X-Signature or X-Timestamp';
  if (!/^\d{1,12}$/.test(timestamp)) return 'X-Timestamp is not unix seconds';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_TIMESTAMP_SKEW_S) return 'X-Timestamp is more than 5 minutes off';
  return constantTimeEqual(signature.trim().toLowerCase(), signWebhook(signingKey, rawBody, timestamp)) ? undefined : 'X-Signature does not match';
}
