// The body rules of create-task (DESIGN.md §3) as smsq applies them in Profile B without a
// default region (libs/task-intake/src/rules/create-task-request.ts, recipient.ts,
// local-datetime.ts), written again here on purpose: the baseline must not share smsq's code
// (one-process-server.ts says why).
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { DateTime } from 'luxon';

/** A request the one-process implementation refuses, with the contract's status and error code. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export interface ValidCreateTask {
  recipient: string;
  message: string;
  scheduledAt: Date;
  /** The client's local `YYYY-MM-DD HH:MM:SS` of scheduledAt, as answered. */
  scheduledLocal: string;
}

const MESSAGE_MAX_CODE_POINTS = 1600;
const SEPARATORS = /[\s\-.()/]/g;
const LOCAL_FORM = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const LOCAL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const invalid = (code: string, detail: string) => new Refusal(400, code, detail);

/** Applies the rules in field order, so the first broken rule is the one answered. */
export function parseCreateTask(body: unknown, timeZone: string, now: Date): ValidCreateTask {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('invalid_request', 'the body must be a JSON object with recipient and message');
  const fields = body as Record<string, unknown>;
  if (typeof fields['recipient'] !== 'string') throw invalid('invalid_request', 'recipient is required and must be a string');
  if (typeof fields['message'] !== 'string') throw invalid('invalid_request', 'message is required and must be a string');
  const recipient = e164(fields['recipient']);
  const message = checkMessage(fields['message']);
  return { recipient, message, ...schedule(fields['scheduled_at'], timeZone, now) };
}

/** Separators dropped, `00` read as `+`; without a default region a number must carry its country code. */
function e164(input: string): string {
  const compact = input.replace(SEPARATORS, '').replace(/^00/, '+');
  const unusable = invalid('invalid_recipient', `${JSON.stringify(input.slice(0, 40))} is not a usable phone number`);
  if (!/^\+?\d{3,17}$/.test(compact)) throw unusable;
  if (!compact.startsWith('+')) throw invalid('invalid_recipient', 'the recipient needs a country code, e.g. +381641234567');
  const parsed = parsePhoneNumberFromString(compact);
  if (!parsed?.isValid()) throw unusable;
  return parsed.number;
}

function checkMessage(message: string): string {
  if (message.trim().length === 0) throw invalid('invalid_message', 'message must not be empty');
  if (message.includes('\u0000') || !message.isWellFormed()) throw invalid('invalid_message', 'message contains characters that cannot be sent');
  const length = [...message].length;
  if (length > MESSAGE_MAX_CODE_POINTS) throw invalid('invalid_message', `message is ${length} characters; the most is ${MESSAGE_MAX_CODE_POINTS}`);
  return message;
}

/** scheduled_at is a local datetime in the client's zone; omitted means now. */
function schedule(value: unknown, timeZone: string, now: Date): { scheduledAt: Date; scheduledLocal: string } {
  if (value === undefined || value === null || value === '') {
    return { scheduledAt: now, scheduledLocal: DateTime.fromJSDate(now, { zone: timeZone }).toFormat(LOCAL_FORMAT) };
  }
  if (typeof value !== 'string') throw invalid('invalid_scheduled_at', 'scheduled_at must be a string like "2026-05-01 09:30:00"');
  const match = LOCAL_FORM.exec(value.trim());
  if (!match) throw invalid('invalid_scheduled_at', `${JSON.stringify(value)} must be YYYY-MM-DD HH:MM:SS or YYYY-MM-DDTHH:MM`);
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const local = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone: timeZone });
  if (!local.isValid || year < 1000) throw invalid('invalid_scheduled_at', `${value} is not a real date and time`);
  // A local time skipped by a clock change does not exist; Luxon would silently move it.
  if (local.hour !== hour || local.minute !== minute || local.day !== day) {
    throw invalid('invalid_scheduled_at', `${value} does not exist in ${timeZone} (the clocks change then)`);
  }
  return { scheduledAt: local.toJSDate(), scheduledLocal: local.toFormat(LOCAL_FORMAT) };
}
