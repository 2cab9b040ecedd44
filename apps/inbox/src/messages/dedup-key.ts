import { createHash } from 'node:crypto';

export interface DedupSource {
  phoneId: number | null;
  from: string;
  /** Normalised to an instant, so the same reply synced with another offset is still the same. */
  receivedAt: Date;
  message: string;
  externalId: string | null;
}

/**
 * What makes an inbound SMS the same one when it is synced again. The phone's own id for it,
 * when it gave one, scoped to the phone; otherwise the phone, the sender, the instant and the text.
 * The sender cannot contain `|` and the text comes last, so the hashed form is unambiguous.
 */
export function dedupKeyOf(source: DedupSource): string {
  const phone = source.phoneId === null ? '-' : String(source.phoneId);
  if (source.externalId !== null) return `ext:${phone}:${source.externalId}`;
  return createHash('sha256').update(`${phone}|${source.from}|${source.receivedAt.toISOString()}|${source.message}`).digest('hex');
}
