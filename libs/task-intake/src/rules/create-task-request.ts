import { isSealedMessage, parseSealedMessage, SealedMessageError, TAG_BYTES, type SealedMessage } from '@smsq/message-crypto';
import { DomainError, InvalidRequestError, MAX_SEALED_MESSAGE_LENGTH, MAX_TTL_S, MESSAGE_MAX_CODE_POINTS, TASK_PRIORITIES, type TaskPriority } from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';
import { messageFromTemplate, type TemplatesByIds } from './template-message.js';
import { normaliseRecipient, type RecipientRules } from './recipient.js';
import { parseInstant, parseSchedule, type Schedule } from './local-datetime.js';

const MAX_PHONE_ID = 2_147_483_647;

/** A create-task body that passed every body rule, normalised. */
export interface CreateTaskRequest {
  recipient: string;
  message: string;
  requestedPhoneId: number | undefined;
  schedule: Schedule;
  /** Not sent by then, the task ends failed (`expired`) and refunded; undefined when the client set no limit. */
  expiresAt: Date | undefined;
  /** `high` ignores the client's send windows and is claimed before normal tasks; `normal` when not given. */
  priority: TaskPriority;
  /** `message` is sealed end to end (docs/guide/encryption.md): stored as given, opened only by the worker. */
  encrypted: boolean;
}

export interface RequestContext extends RecipientRules {
  timeZone: string;
  now: Date;
  /** The client's templates the request names by `template_id`. */
  templates: TemplatesByIds;
}

/** Applies the body rules of DESIGN.md §3, in field order, so the first broken rule is the one answered. */
export function parseCreateTaskRequest(body: unknown, context: RequestContext): CreateTaskRequest {
  const fields = jsonObjectOf(body, 'a JSON object with recipient and message');
  if (typeof fields['recipient'] !== 'string') throw new InvalidRequestError('recipient is required and must be a string');
  const fromTemplate = fields['template_id'] !== undefined;
  if (!fromTemplate && typeof fields['message'] !== 'string') throw new InvalidRequestError('message (or template_id) is required and must be a string');
  const encrypted = parseEncrypted(fields['encrypted']);
  if (encrypted && fromTemplate) {
    throw new InvalidRequestError('template_id cannot be used with encrypted: smsq would have to read the text to fill the template; seal the finished text and send it as message');
  }
  const recipient = normaliseRecipient(fields['recipient'], context);
  const message = encrypted ? checkSealedMessage(fields['message'] as string) : checkMessage(fromTemplate ? messageFromTemplate(fields, context.templates) : refuseUnmarkedSeal(fields['message'] as string));
  const schedule = parseSchedule(fields['scheduled_at'], context.timeZone, context.now);
  const expiresAt = parseExpiry(fields, dueAt(schedule, context.now), context.timeZone);
  return { recipient, message, requestedPhoneId: usablePhoneId(fields['phone_id']), schedule, expiresAt, priority: parsePriority(fields['priority']), encrypted };
}

/** `true` when the message is sealed; left out (or null, or false), a readable message. */
function parseEncrypted(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new InvalidRequestError('encrypted must be true or false');
  return value;
}

/** A sealed message is stored exactly as given; only its form is checked, since smsq cannot read it. */
function checkSealedMessage(message: string): string {
  if (message.length > MAX_SEALED_MESSAGE_LENGTH) {
    throw new DomainError('invalid_message', `the encrypted message is ${message.length} characters; a message of at most ${MESSAGE_MAX_CODE_POINTS} characters seals to at most ${MAX_SEALED_MESSAGE_LENGTH}`);
  }
  let sealed: SealedMessage;
  try {
    sealed = parseSealedMessage(message);
  } catch (error) {
    if (error instanceof SealedMessageError) throw new DomainError('invalid_message', `encrypted is true, but the message is not a sealed message: ${error.message}`);
    throw error;
  }
  // AES-GCM's tag alone: a sealed message of no text.
  if (sealed.ciphertext.length <= TAG_BYTES) throw new DomainError('invalid_message', 'the encrypted message holds no text; message must not be empty');
  return message;
}

/** A sealed message sent as plain text would reach its recipient as ciphertext: it must say it is sealed. */
function refuseUnmarkedSeal(message: string): string {
  if (isSealedMessage(message)) throw new DomainError('invalid_message', 'the message is a sealed (encrypted) message: send it with "encrypted": true, or the recipient would get its ciphertext');
  return message;
}

/** `"normal"` or `"high"`; left out (or null), normal. */
function parsePriority(value: unknown): TaskPriority {
  if (value === undefined || value === null) return 'normal';
  if (typeof value !== 'string' || !(TASK_PRIORITIES as readonly string[]).includes(value)) {
    throw new InvalidRequestError(`priority must be ${TASK_PRIORITIES.map((name) => `"${name}"`).join(' or ')}: "high" (one-time codes, alerts) ignores your send windows and goes before normal tasks`);
  }
  return value as TaskPriority;
}

/** When a task scheduled so becomes due: its time, or now for one in the past. */
function dueAt(schedule: Schedule, now: Date): Date {
  return new Date(Math.max(schedule.at.getTime(), now.getTime()));
}

/**
 * An `expires_at` must be later than the time the task is due. Checked when the create runs, not
 * when the body is read: whether it holds depends on the time, and a repeat under an
 * Idempotency-Key must get the first answer, not a verdict of a later clock.
 */
export function refuseLapsedExpiry(request: CreateTaskRequest, now: Date): void {
  if (request.expiresAt && request.expiresAt.getTime() <= dueAt(request.schedule, now).getTime()) {
    throw new InvalidRequestError('expires_at must be later than the time the task is due');
  }
}

/**
 * `ttl`, seconds counted from when the task is due (now, or its scheduled_at), or `expires_at`, a
 * local datetime like scheduled_at (or an ISO 8601 instant with its offset); at most one of them.
 */
function parseExpiry(fields: Record<string, unknown>, due: Date, timeZone: string): Date | undefined {
  const ttl = fields['ttl'] ?? undefined;
  const expiresAt = fields['expires_at'] ?? undefined;
  if (ttl !== undefined && expiresAt !== undefined) throw new InvalidRequestError('give ttl or expires_at, not both');
  if (ttl !== undefined) {
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_S) {
      throw new InvalidRequestError(`ttl must be a whole number of seconds from 1 to ${MAX_TTL_S}`);
    }
    return new Date(due.getTime() + ttl * 1000);
  }
  if (expiresAt === undefined) return undefined;
  if (typeof expiresAt !== 'string') throw new InvalidRequestError('expires_at must be a string like "2026-05-01 09:30:00"');
  return parseInstant(expiresAt, timeZone, 'invalid_request');
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
