import { DomainError } from '@smsq/contracts';
import { DateTime } from 'luxon';

export interface Schedule {
  /** The instant the task becomes due. */
  at: Date;
  /** The same moment as the client's local `YYYY-MM-DD HH:MM:SS`, as the task record shows it. */
  local: string;
}

/** `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD HH:MM`. */
const FORM = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const LOCAL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** Reads scheduled_at as a local datetime in the client's time zone; omitted means now. */
export function parseSchedule(value: unknown, timeZone: string, now: Date): Schedule {
  if (value === undefined || value === null || value === '') {
    return { at: now, local: DateTime.fromJSDate(now, { zone: timeZone }).toFormat(LOCAL_FORMAT) };
  }
  if (typeof value !== 'string') throw invalid('scheduled_at must be a string like "2026-05-01 09:30:00"');
  const match = FORM.exec(value.trim());
  if (!match) throw invalid('scheduled_at must be YYYY-MM-DD HH:MM:SS or YYYY-MM-DDTHH:MM');
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const local = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone: timeZone });
  if (!local.isValid) throw invalid(`${value} is not a real date and time`);
  // A local time skipped by a clock change does not exist; Luxon would silently move it.
  if (local.hour !== hour || local.minute !== minute || local.day !== day) {
    throw invalid(`${value} does not exist in ${timeZone} (the clocks change then)`);
  }
  return { at: local.toJSDate(), local: local.toFormat(LOCAL_FORMAT) };
}

function invalid(detail: string): DomainError {
  return new DomainError('invalid_scheduled_at', detail);
}
