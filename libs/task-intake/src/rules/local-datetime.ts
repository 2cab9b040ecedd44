import { DomainError, type ErrorCode } from '@smsq/contracts';
import { DateTime } from 'luxon';

export interface Schedule {
  /** The instant the task becomes due. */
  at: Date;
  /** The same moment as the client's local `YYYY-MM-DD HH:MM:SS`, as the task record shows it. */
  local: string;
}

/** `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD HH:MM`. */
const LOCAL_FORM = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const LOCAL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** A local datetime in one of the four accepted forms, read in the zone; an error names what is wrong. */
export function readLocalDateTime(text: string, timeZone: string, code: ErrorCode): DateTime {
  const match = LOCAL_FORM.exec(text.trim());
  if (!match) throw new DomainError(code, `${JSON.stringify(text)} must be YYYY-MM-DD HH:MM:SS or YYYY-MM-DDTHH:MM`);
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const local = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone: timeZone });
  // Before year 1000 the zone's historic offsets can push the instant before year 1, which nothing downstream can hold.
  if (!local.isValid || year < 1000) throw new DomainError(code, `${text} is not a real date and time`);
  // A local time skipped by a clock change does not exist; Luxon would silently move it.
  if (local.hour !== hour || local.minute !== minute || local.day !== day) {
    throw new DomainError(code, `${text} does not exist in ${timeZone} (the clocks change then)`);
  }
  return local;
}

const CLOCKS = new Map<string, Intl.DateTimeFormat>();

/**
 * `at` as the zone's `YYYY-MM-DD HH:MM:SS`, what Luxon's `toFormat` gives, by a formatter kept per
 * zone: most creates name no time, and Luxon spends about a tenth of a lone create's time
 * working out the zone's offset first (docs/performance.md, "Optimisation 14").
 */
export function localNow(at: Date, timeZone: string): string {
  let clock = CLOCKS.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    CLOCKS.set(timeZone, clock);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of clock.formatToParts(at)) part[type] = value;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/** Reads scheduled_at as a local datetime in the client's time zone; omitted means now. */
export function parseSchedule(value: unknown, timeZone: string, now: Date): Schedule {
  if (value === undefined || value === null || value === '') return { at: now, local: localNow(now, timeZone) };
  if (typeof value !== 'string') throw new DomainError('invalid_scheduled_at', 'scheduled_at must be a string like "2026-05-01 09:30:00"');
  const local = readLocalDateTime(value, timeZone, 'invalid_scheduled_at');
  return { at: local.toJSDate(), local: local.toFormat(LOCAL_FORMAT) };
}

/** An ISO 8601 instant with its offset, or a local datetime read in the zone. */
export function parseInstant(text: string, timeZone: string, code: ErrorCode): Date {
  if (/[zZ]$|[+-]\d{2}:?\d{2}$/.test(text.trim()) && /T/.test(text)) {
    const instant = DateTime.fromISO(text.trim(), { setZone: true });
    if (!instant.isValid) throw new DomainError(code, `${text} is not a real date and time`);
    return instant.toJSDate();
  }
  return readLocalDateTime(text, timeZone, code).toJSDate();
}
