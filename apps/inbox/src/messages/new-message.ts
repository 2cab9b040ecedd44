import { InvalidRequestError, type InboundMessage } from '@smsq/contracts';
import { isStoredId } from '../database/stored-id.js';
import { dedupKeyOf } from './dedup-key.js';
import { instantOf } from './received-at.js';

/** A row to insert into `inbox.messages`. */
export interface NewMessage {
  clientId: number | null;
  phoneId: number | null;
  sender: string;
  body: string;
  encrypted: boolean;
  keyword: string | null;
  receivedAt: Date;
  externalId: string | null;
  dedupKey: string;
}

/**
 * Checks what the payload's validation cannot (Postgres refuses NUL in text; the ids must fit
 * their columns; the time must name an instant) and derives the deduplication key.
 */
export function newMessageOf(message: InboundMessage, label: string): NewMessage {
  if (message.message.includes('\u0000')) throw new InvalidRequestError(`${label}.message must not contain a NUL character`);
  if (message.externalId?.includes('\u0000')) throw new InvalidRequestError(`${label}.externalId must not contain a NUL character`);
  for (const field of ['clientId', 'phoneId'] as const) {
    const id = message[field];
    if (id !== undefined && !isStoredId(id)) throw new InvalidRequestError(`${label}.${field} is not an id that can exist`);
  }
  const receivedAt = instantOf(message.receivedAt);
  if (!receivedAt) throw new InvalidRequestError(`${label}.receivedAt must be an ISO 8601 date-time with a zone (Z or ±hh:mm)`);

  const source = {
    phoneId: message.phoneId ?? null,
    from: message.from,
    receivedAt,
    message: message.message,
    externalId: message.externalId ?? null,
  };
  return {
    clientId: message.clientId ?? null,
    phoneId: source.phoneId,
    sender: source.from,
    body: source.message,
    encrypted: message.encrypted === true,
    keyword: message.encrypted === true ? (message.keyword ?? null) : null,
    receivedAt,
    externalId: source.externalId,
    dedupKey: dedupKeyOf(source),
  };
}
