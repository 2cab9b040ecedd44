import { parseSealedMessage, SealedMessageError } from '@smsq/message-crypto';
import { DomainError, InvalidRequestError, MAX_MESSAGES_PER_SYNC, MAX_SEALED_REPLY_LENGTH, REPLY_KEYWORDS, REPLY_MAX_CODE_POINTS, withoutSeparators, type ReplyKeyword } from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { normaliseRecipient, type RecipientRules } from '@smsq/task-intake';

/** One reply as the phone or gateway sent it, before its owner and time zone are known. */
export interface InboundItem {
  from: string;
  message: string;
  /** Sealed by the worker (docs/guide/encryption.md): `message` is the ciphertext. */
  encrypted: boolean;
  /** A sealed reply's keyword as the worker read its plaintext; undefined when none. */
  keyword: ReplyKeyword | undefined;
  /** As sent: a local datetime or an ISO 8601 instant; absent means "now". */
  receivedAt: string | undefined;
  externalId: string | undefined;
}

/**
 * `{"messages": [ … ]}` or one message on its own; each `{from, message, received_at?, external_id?}`.
 * `rules` read a sender's number as create-task reads a recipient.
 */
export function parseInboundBody(body: unknown, rules: RecipientRules): InboundItem[] {
  const record = jsonObjectOf(body, 'a message object or {"messages": [...]}');
  const list = 'messages' in record ? record['messages'] : [record];
  if (!Array.isArray(list) || list.length === 0) throw new InvalidRequestError('messages must be a non-empty array');
  if (list.length > MAX_MESSAGES_PER_SYNC) throw new InvalidRequestError(`at most ${MAX_MESSAGES_PER_SYNC} messages per request`);
  return list.map((item, index) => parseItem(item, index, rules));
}

function parseItem(item: unknown, index: number, rules: RecipientRules): InboundItem {
  const where = `messages[${index}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new InvalidRequestError(`${where} must be an object`);
  const { from, message, received_at: receivedAt, external_id: externalId, encrypted, keyword } = item as Record<string, unknown>;
  if (typeof from !== 'string' || from.trim() === '') throw new InvalidRequestError(`${where}.from must be the sender's number`);
  if (typeof message !== 'string') throw new InvalidRequestError(`${where}.message must be a string`);
  if (encrypted !== undefined && encrypted !== null && typeof encrypted !== 'boolean') throw new InvalidRequestError(`${where}.encrypted must be true or false`);
  const sealed = encrypted === true;
  if (sealed) checkSealedReply(message, where);
  else if (message.includes('\u0000') || !message.isWellFormed() || [...message].length > REPLY_MAX_CODE_POINTS) {
    throw new InvalidRequestError(`${where}.message must be text of at most ${REPLY_MAX_CODE_POINTS} characters`);
  }
  const replyKeyword = keywordOf(keyword, sealed, where);
  if (receivedAt !== undefined && receivedAt !== null && typeof receivedAt !== 'string') throw new InvalidRequestError(`${where}.received_at must be a string`);
  if (externalId !== undefined && externalId !== null && (typeof externalId !== 'string' || externalId.length === 0 || externalId.length > 200)) {
    throw new InvalidRequestError(`${where}.external_id must be a string of 1 to 200 characters`);
  }
  return {
    from: normaliseSender(from, where, rules),
    message,
    encrypted: sealed,
    keyword: replyKeyword,
    receivedAt: typeof receivedAt === 'string' && receivedAt !== '' ? receivedAt : undefined,
    externalId: typeof externalId === 'string' ? externalId : undefined,
  };
}

/**
 * A number becomes E.164 exactly as create-task stores a recipient (`0645509401` is
 * `+381645509401` in Profile A), so a reply meets the tasks sent to its sender: its STOP, its
 * conversation. An alphanumeric sender id ("VODAFONE") or a short code stays as written.
 */
function normaliseSender(from: string, where: string, rules: RecipientRules): string {
  const trimmed = from.trim();
  if (/[A-Za-z]/.test(trimmed)) {
    if (!/^[0-9A-Za-z][0-9A-Za-z .-]{0,31}$/.test(trimmed)) throw new InvalidRequestError(`${where}.from is not a sender`);
    return trimmed;
  }
  try {
    return normaliseRecipient(trimmed, rules);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
  // Not a number create-task would take: still a sender whose reply is kept.
  const compact = withoutSeparators(trimmed).replace(/^00/, '+');
  const parsed = compact.startsWith('+') ? parsePhoneNumberFromString(compact) : undefined;
  if (parsed?.isPossible()) return parsed.number;
  if (/^\+?\d{2,20}$/.test(compact)) return compact;
  throw new InvalidRequestError(`${where}.from is not a phone number`);
}

/** A sealed reply is stored as given: only its form is checked, since smsq cannot read it. */
function checkSealedReply(message: string, where: string): void {
  if (message.length > MAX_SEALED_REPLY_LENGTH) throw new InvalidRequestError(`${where}.message is longer than a sealed reply of ${REPLY_MAX_CODE_POINTS} characters can be`);
  try {
    parseSealedMessage(message);
  } catch (error) {
    if (error instanceof SealedMessageError) throw new InvalidRequestError(`${where}.encrypted is true, but its message is not a sealed message: ${error.message}`);
    throw error;
  }
}

/** The worker's reading of a sealed reply: `opt_out`, `opt_in`, or none; a readable reply's keywords are smsq's to find. */
function keywordOf(keyword: unknown, sealed: boolean, where: string): ReplyKeyword | undefined {
  if (keyword === undefined || keyword === null) return undefined;
  if (!sealed) throw new InvalidRequestError(`${where}.keyword goes only with encrypted: smsq reads a readable reply's keywords itself`);
  if (typeof keyword !== 'string' || !(REPLY_KEYWORDS as readonly string[]).includes(keyword)) {
    throw new InvalidRequestError(`${where}.keyword must be ${REPLY_KEYWORDS.map((name) => `"${name}"`).join(' or ')}`);
  }
  return keyword as ReplyKeyword;
}
