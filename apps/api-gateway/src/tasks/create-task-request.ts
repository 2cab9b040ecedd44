import { DomainError, InvalidRequestError } from '@smsq/contracts';
import { jsonObjectOf } from '../http/json-body.js';
import { normaliseRecipient, type RecipientRules } from './recipient.js';
import { parseSchedule, type Schedule } from '../time/local-datetime.js';

export const MESSAGE_MAX_CODE_POINTS = 1600;
const IDEMPOTENCY_KEY_MAX = 255;
const MAX_PHONE_ID = 2_147_483_647;

/** A create-task body that passed every body rule, normalised. */
export interface CreateTaskRequest {
  recipient: string;
  message: string;
  requestedPhoneId: number | undefined;
  schedule: Schedule;
}

export interface RequestContext extends RecipientRules {
  timeZone: string;
  now: Date;
}

/** Applies the body rules of DESIGN.md §3, in field order, so the first broken rule is the one answered. */
export function parseCreateTaskRequest(body: unknown, context: RequestContext): CreateTaskRequest {
  const fields = jsonObjectOf(body, 'a JSON object with recipient and message');
  if (typeof fields['recipient'] !== 'string') throw new InvalidRequestError('recipient is required and must be a string');
  if (typeof fields['message'] !== 'string') throw new InvalidRequestError('message is required and must be a string');
  const recipient = normaliseRecipient(fields['recipient'], context);
  const message = checkMessage(fields['message']);
  const schedule = parseSchedule(fields['scheduled_at'], context.timeZone, context.now);
  return { recipient, message, requestedPhoneId: usablePhoneId(fields['phone_id']), schedule };
}

function checkMessage(message: string): string {
  if (message.trim().length === 0) throw new DomainError('invalid_message', 'message must not be empty');
  // Postgres text cannot hold NUL, and a lone surrogate is not text any phone can show.
  if (message.includes('\u0000') || !message.isWellFormed()) {
    throw new DomainError('invalid_message', 'message contains characters that cannot be sent');
  }
  const length = [...message].length;
  if (length > MESSAGE_MAX_CODE_POINTS) {
    throw new DomainError('invalid_message', `message is ${length} characters; the most is ${MESSAGE_MAX_CODE_POINTS}`);
  }
  return message;
}

/** Only a JSON integer names a phone; any other form is ignored, as if omitted (DESIGN.md §3). */
function usablePhoneId(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_PHONE_ID ? value : undefined;
}

/** The Idempotency-Key header, if any; more than 255 characters is a bad request. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? undefined : header.trim();
  if (key === undefined || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new InvalidRequestError(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return key;
}
