import { createHmac } from 'node:crypto';

/**
 * `Smsq-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`: the receiver
 * recomputes it over the raw body and refuses an old `t`, so a captured delivery cannot be replayed.
 * While a rotated-out secret is still in its grace period, a second `v1` is signed with it, so a
 * receiver that has either secret accepts the delivery.
 */
export function signatureHeader(secrets: readonly string[], body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`)].join(',');
}
