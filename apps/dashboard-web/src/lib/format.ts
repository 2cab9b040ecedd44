/** Formatting helpers. Locale and time zone are parameters so that tests are deterministic. */

export interface FormatOptions {
  locale?: string;
  timeZone?: string;
}

/** "1,234" — credits and counts. Non-finite numbers are shown as an en dash. */
export function formatCredits(value: number | null | undefined, locale?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return new Intl.NumberFormat(locale ?? 'en-US', { maximumFractionDigits: 0 }).format(value);
}

/** "12 May 2025, 14:03" — an ISO instant as a readable date and time; `fallback` when absent. */
export function formatDateTime(iso: string | null | undefined, fallback = 'Never', options: FormatOptions = {}): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return fallback;
  return new Intl.DateTimeFormat(options.locale ?? 'en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: options.timeZone,
  }).format(date);
}

/**
 * "2026-11-23 12:04:05" — an instant as the wall-clock time of a time zone (a client's, not the
 * browser's); null when it is not a time or the zone is unknown.
 */
export function wallClockIn(iso: string, timeZone: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(date);
  } catch {
    return null;
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/** "2026-11-23 12:04:05 (Europe/Belgrade)" — an instant in a time zone, labelled with it. */
export function formatInZone(iso: string | null | undefined, timeZone: string, fallback = '–'): string {
  const wallClock = iso ? wallClockIn(iso, timeZone) : null;
  return wallClock === null ? fallback : `${wallClock} (${timeZone})`;
}

/** "May 3" — a calendar day given as YYYY-MM-DD (no time zone shift: the day is already local). */
export function formatDay(day: string, locale = 'en-US'): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", "in 4 h" — relative to `now`. */
export function formatRelative(iso: string | null | undefined, now: Date = new Date(), fallback = 'Never'): string {
  if (!iso) return fallback;
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return fallback;
  const seconds = Math.round((then - now.getTime()) / 1000);
  const future = seconds > 0;
  const abs = Math.abs(seconds);
  const wrap = (text: string) => (future ? `in ${text}` : `${text} ago`);
  if (abs < 45) return future ? 'in a moment' : 'just now';
  if (abs < 3600) return wrap(`${Math.max(1, Math.round(abs / 60))} min`);
  if (abs < 86_400) {
    const totalMinutes = Math.round(abs / 60);
    const hours = Math.floor(totalMinutes / 60);
    const minutes = totalMinutes % 60;
    return wrap(minutes > 0 && hours < 10 ? `${hours} h ${minutes} min` : `${hours} h`);
  }
  const days = Math.round(abs / 86_400);
  return wrap(`${days} ${days === 1 ? 'day' : 'days'}`);
}

/** "invalid_request" → "Invalid request". */
export function humanizeCode(code: string): string {
  const text = code.replace(/[_-]+/g, ' ').trim();
  return text === '' ? 'Error' : text.charAt(0).toUpperCase() + text.slice(1);
}

/** Shortens long text for table cells; the full text stays available elsewhere. */
export function truncate(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
