import { createHash } from 'node:crypto';
import type { ReceivedSms } from '../phone-driver.js';
import type { InboxItem } from './smsgate-api.js';

/**
 * A reply from an `sms:received` webhook (payload/SmsEventPayload.kt). Its `messageId` is the
 * unsigned hex of the message's hash (ReceiverService.process); apps before 2024-12 sent none, and
 * a hash of the reply stands in. `sender` replaced `phoneNumber`, which is still sent.
 */
export function replyFromWebhook(payload: Record<string, unknown>): ReceivedSms | undefined {
  const from = text(payload['sender']) || text(payload['phoneNumber']);
  const message = text(payload['message']);
  const receivedAt = instant(payload['receivedAt']);
  if (!from || message === undefined || receivedAt === undefined) return undefined;
  const id = text(payload['messageId']) || contentId(from, receivedAt, message);
  return { from, message, receivedAt, externalId: `smsgate:${id}` };
}

/** A reply from `GET /inbox`, under the same `externalId` the webhook gives it, so smsq stores it once. */
export function replyFromInbox(item: InboxItem): ReceivedSms | undefined {
  const receivedAt = instant(item.createdAt);
  if (item.type !== 'SMS' || !text(item.sender) || typeof item.contentPreview !== 'string' || receivedAt === undefined) return undefined;
  return { from: item.sender, message: item.contentPreview, receivedAt, externalId: `smsgate:${webhookIdOf(item.id)}` };
}

/**
 * The inbox names a text `text:<hash>` with the signed decimal hash (IncomingMessagesService.buildId,
 * v1.63+); the webhook names it by the same hash as unsigned hex (`toUInt().toString(16)`).
 * v1.59–v1.62 named it by a UUID the webhook never shows: such ids pass through unchanged.
 */
export function webhookIdOf(inboxId: string): string {
  const hash = /^text:(-?\d{1,10})$/.exec(inboxId)?.[1];
  return hash === undefined ? inboxId : (Number(hash) >>> 0).toString(16);
}

function contentId(from: string, receivedAt: string, message: string): string {
  return createHash('sha256').update(JSON.stringify([from, receivedAt, message])).digest('hex').slice(0, 16);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** ISO 8601 in UTC; the app writes `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` in the phone's zone. */
function instant(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}
