// Date, then time with optional seconds and fraction, then a zone: only an instant can be deduplicated and sorted.
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The instant an ISO 8601 date-time with a zone names, to the millisecond (the column's precision);
 * undefined for anything else, including a local time without a zone, which names no instant here.
 */
export function instantOf(text: string): Date | undefined {
  const match = ISO_INSTANT.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone, sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const fields = { year: Number(year), month: Number(month), day: Number(day), hour: Number(hour), minute: Number(minute), second: Number(second) };
  // Postgres has no year 0, and a phone whose clock says so has no useful time anyway.
  if (fields.year < 1 || fields.hour > 23 || fields.minute > 59 || fields.second > 59) return undefined;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;

  const local = new Date(0);
  local.setUTCFullYear(fields.year, fields.month - 1, fields.day);
  local.setUTCHours(fields.hour, fields.minute, fields.second, Number(fraction.slice(0, 3).padEnd(3, '0')));
  if (local.getUTCFullYear() !== fields.year || local.getUTCMonth() !== fields.month - 1 || local.getUTCDate() !== fields.day) return undefined;

  const offsetMs = zone?.toUpperCase() === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  const instant = new Date(local.getTime() - offsetMs);
  return instant.getUTCFullYear() >= 1 ? instant : undefined;
}
