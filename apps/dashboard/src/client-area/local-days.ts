import { InvalidRequestError } from '@smsq/contracts';
import { DateTime } from 'luxon';

/**
 * The instants a filter of local days means in a time zone: `from` is the start of that day,
 * `to` the start of the day after it (exclusive), so `to` includes the whole day named.
 */
export function instantsOfLocalDays(range: { from?: string; to?: string }, timeZone: string): { from?: string; to?: string } {
  return {
    from: range.from === undefined ? undefined : startOfDay(range.from, 'from', timeZone).toUTC().toISO()!,
    to: range.to === undefined ? undefined : startOfDay(range.to, 'to', timeZone).plus({ days: 1 }).toUTC().toISO()!,
  };
}

function startOfDay(day: string, name: string, timeZone: string): DateTime {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(day) ? DateTime.fromISO(day, { zone: timeZone }) : undefined;
  if (!parsed?.isValid) throw new InvalidRequestError(`${name} must be a date, YYYY-MM-DD`);
  return parsed.startOf('day');
}
