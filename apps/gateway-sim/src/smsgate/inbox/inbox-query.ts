import { SmsGateBadRequest } from '../errors/smsgate-errors.js';
import { readQueryDate } from '../phone/app-dates.js';
import { queryText, toBooleanStrict, toIntOrNull } from '../phone/query-values.js';

export const INCOMING_MESSAGE_TYPES = ['SMS', 'DATA_SMS', 'MMS', 'MMS_DOWNLOADED'] as const;
export type IncomingMessageType = (typeof INCOMING_MESSAGE_TYPES)[number];

export interface InboxQuery {
  type: IncomingMessageType | undefined;
  limit: number;
  offset: number;
  from: Date;
  to: Date;
}

/** Reads `GET /inbox`'s query with the app's checks and messages, in its order. */
export function readInboxQuery(query: Record<string, unknown>, deviceId: string, now: Date): InboxQuery {
  const rawType = queryText(query['type']);
  const type = rawType === undefined || rawType.trim() === '' ? undefined : rawType;
  if (type !== undefined && !(INCOMING_MESSAGE_TYPES as readonly string[]).includes(type)) throw new SmsGateBadRequest('Invalid type');
  try {
    toBooleanStrict(query['includeAttachments']);
  } catch {
    throw new SmsGateBadRequest('includeAttachments must be true or false');
  }
  const limit = toIntOrNull(query['limit']) ?? 50;
  const offset = toIntOrNull(query['offset']) ?? 0;
  if (limit < 1 || limit > 500) throw new SmsGateBadRequest('limit must be between 1 and 500');
  if (offset < 0) throw new SmsGateBadRequest('offset must be >= 0');
  const from = readDate(query['from'], new Date(0), 'Invalid from datetime');
  const to = readDate(query['to'], now, 'Invalid to datetime');
  const requestedDevice = queryText(query['deviceId']);
  if (requestedDevice !== undefined && requestedDevice !== deviceId) throw new SmsGateBadRequest('Invalid device ID');
  if (from.getTime() > to.getTime()) throw new SmsGateBadRequest('Start date cannot be after end date');
  return { type: type as IncomingMessageType | undefined, limit, offset, from, to };
}

function readDate(value: unknown, fallback: Date, problem: string): Date {
  const raw = queryText(value);
  if (raw === undefined) return fallback;
  const date = readQueryDate(raw);
  if (date === undefined) throw new SmsGateBadRequest(problem);
  return date;
}
