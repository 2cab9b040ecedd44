import { CLOCK_TIME, InvalidRequestError, MAX_SEND_WINDOWS, WEEKDAYS, type SendWindow, type Weekday } from '@smsq/contracts';

/** How send windows are written on the command line, for the messages that refuse one. */
export const SEND_WINDOWS_TEXT_FORMAT =
  'windows like "mon-fri 08:00-21:00, sat 10:00-14:00": days (mon…sun, a range mon-fri, several joined by +, or daily), then from-to in 24-hour time, a to at or before from running past midnight; or none';

const DAY_RANGE = /^([a-z]{3})(?:-([a-z]{3}))?$/;
const WINDOW = /^(\S+) (\d{1,2}:\d{2})-(\d{1,2}:\d{2})$/;

/**
 * Reads send windows written as text: `mon-fri 08:00-21:00, sat 10:00-14:00`, or `none` (or an
 * empty text) for no windows. Windows are separated by `,` or `;`; the days of one are a day, a
 * range (`mon-fri`, `fri-mon` wraps round the week) or several joined by `+` (`mon+wed+fri`), or
 * `daily`; hours are `H:MM` or `HH:MM`, `24:00` being midnight at the end of the day, and a `to`
 * at or before `from` runs past midnight (`fri 22:00-02:00`). Case and spaces do not matter.
 */
export function parseSendWindowsText(text: string): SendWindow[] {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '' || trimmed === 'none') return [];
  const windows = trimmed.split(/[,;]/).map((part) => part.trim());
  if (windows.length > MAX_SEND_WINDOWS) throw new InvalidRequestError(`at most ${MAX_SEND_WINDOWS} send windows; got ${windows.length}`);
  return windows.map(windowOf);
}

function windowOf(text: string): SendWindow {
  const match = WINDOW.exec(text.replace(/–/g, '-').replace(/\s*([-+])\s*/g, '$1').replace(/\s+/g, ' '));
  if (!match) throw new InvalidRequestError(`"${text}" is not a send window; write ${SEND_WINDOWS_TEXT_FORMAT}`);
  const [, days, from, to] = match as unknown as [string, string, string, string];
  return { days: daysOf(days, text), from: clockOf(from, text), to: clockOf(to, text) };
}

function daysOf(text: string, window: string): Weekday[] {
  if (text === 'daily') return [...WEEKDAYS];
  const days = new Set<Weekday>();
  for (const item of text.split('+')) {
    const match = DAY_RANGE.exec(item);
    const first = match ? WEEKDAYS.indexOf(match[1] as Weekday) : -1;
    const last = match?.[2] === undefined ? first : WEEKDAYS.indexOf(match[2] as Weekday);
    if (first < 0 || last < 0) throw new InvalidRequestError(`"${item}" in "${window}" is not a day or a range of days: use mon, tue, wed, thu, fri, sat, sun, a range such as mon-fri, or daily`);
    for (let day = first; ; day = (day + 1) % WEEKDAYS.length) {
      days.add(WEEKDAYS[day]!);
      if (day === last) break;
    }
  }
  // In the week's order, whatever order they were written in: the same windows always read the same.
  return WEEKDAYS.filter((day) => days.has(day));
}

function clockOf(text: string, window: string): string {
  const clock = text.padStart(5, '0');
  if (!CLOCK_TIME.test(clock)) throw new InvalidRequestError(`"${text}" in "${window}" is not a time of day: use HH:MM from 00:00 to 24:00`);
  return clock;
}

/** The windows as `parseSendWindowsText` reads them (`none` for no windows): `mon-fri 08:00-21:00, sat 10:00-14:00`. */
export function formatSendWindowsText(windows: readonly SendWindow[]): string {
  if (windows.length === 0) return 'none';
  return windows.map((window) => `${daysText(window.days)} ${window.from}-${window.to}`).join(', ');
}

function daysText(days: readonly Weekday[]): string {
  const indexes = [...new Set(days.map((day) => WEEKDAYS.indexOf(day)))].sort((a, b) => a - b);
  if (indexes.length === WEEKDAYS.length) return 'daily';
  const runs: string[] = [];
  for (let start = 0; start < indexes.length; ) {
    let end = start;
    while (end + 1 < indexes.length && indexes[end + 1] === indexes[end]! + 1) end += 1;
    const [from, to] = [WEEKDAYS[indexes[start]!]!, WEEKDAYS[indexes[end]!]!];
    if (end === start) runs.push(from);
    else if (end === start + 1) runs.push(from, to);
    else runs.push(`${from}-${to}`);
    start = end + 1;
  }
  return runs.join('+');
}
