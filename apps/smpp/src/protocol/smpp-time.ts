/** A time field that is neither empty nor SMPP absolute or relative time. */
export class InvalidSmppTime extends Error {
  constructor(readonly value: string) {
    super(`"${value}" is not an SMPP time (YYMMDDhhmmsstnnp)`);
    this.name = InvalidSmppTime.name;
  }
}

const SMPP_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d)(\d{2})([+\-R])$/;
const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_OFFSET_QUARTERS = 48;

/**
 * The instant a schedule_delivery_time or validity_period names (SMPP 3.4 section 7.1.1): absolute
 * `YYMMDDhhmmsstnn±` (local time nn quarter hours ahead of or behind UTC), or relative
 * `YYMMDDhhmmss000R` counted from `now`. Empty means none. The caller answers an InvalidSmppTime
 * with ESME_RINVSCHED or ESME_RINVEXPIRY, by field.
 */
export function parseSmppTime(value: string, now: Date): Date | undefined {
  if (value === '') return undefined;
  const match = SMPP_TIME.exec(value);
  if (!match) throw new InvalidSmppTime(value);
  const [years, months, days, hours, minutes, seconds, tenths, quarters] = match.slice(1, 9).map(Number) as [number, number, number, number, number, number, number, number];
  const sign = match[9];

  if (sign === 'R') {
    const time = new Date(now.getTime());
    time.setUTCFullYear(time.getUTCFullYear() + years, time.getUTCMonth() + months, time.getUTCDate() + days);
    return new Date(time.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000);
  }

  if (months < 1 || months > 12 || days < 1 || hours > 23 || minutes > 59 || seconds > 59 || quarters > MAX_OFFSET_QUARTERS) throw new InvalidSmppTime(value);
  // SMPP gives two digits of year; smsq reads them in this century.
  const year = 2000 + years;
  const local = Date.UTC(year, months - 1, days, hours, minutes, seconds, tenths * 100);
  if (new Date(local).getUTCDate() !== days) throw new InvalidSmppTime(value);
  const offsetMs = quarters * QUARTER_HOUR_MS * (sign === '-' ? -1 : 1);
  return new Date(local - offsetMs);
}

/** An instant as SMPP absolute time in UTC (`YYMMDDhhmmsst00+`), as query_sm_resp's final_date. */
export function formatSmppTime(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return (
    `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}` +
    `${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}${Math.floor(date.getUTCMilliseconds() / 100)}00+`
  );
}
