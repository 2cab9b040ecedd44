import { MAX_SEND_WINDOWS, MAX_STICKY_DAYS, WEEKDAYS, type RoutingMode, type SendingRulesChange, type SendWindow, type Weekday } from '@smsq/dashboard-api';

export interface RoutingModeChoice {
  mode: RoutingMode;
  label: string;
  /** What it does, in a sentence. */
  description: string;
}

/** The three modes as the Settings and Phones pages explain them; Profile B spreads over the client's VIP gateways. */
export function routingModeChoices(profile: 'A' | 'B'): RoutingModeChoice[] {
  if (profile === 'B') {
    return [
      { mode: 'first', label: 'Least recently used', description: 'Each SMS goes through the gateway of your VIP pool used least recently, as the specification says; without one free, through the shared pool.' },
      { mode: 'spread', label: 'Spread', description: 'Each SMS goes through the gateway of your VIP pool with the most room left today, then the least recently used, so they share the load.' },
      {
        mode: 'sticky',
        label: 'Sticky',
        description: 'Each recipient always gets your messages from the same gateway (and SIM), which keeps replies in one thread and recipient counts low; a new recipient is placed as Spread would.',
      },
    ];
  }
  return [
    { mode: 'first', label: 'First phone', description: 'Every SMS goes through your first phone until its daily limit, then the next, as the specification says.' },
    { mode: 'spread', label: 'Spread', description: 'Each SMS goes through the phone with the most room left today, then the least recently used, so all your phones share the load.' },
    {
      mode: 'sticky',
      label: 'Sticky',
      description: 'Each recipient always gets your messages from the same phone (and SIM), which keeps replies in one thread and recipient counts low; a new recipient is placed as Spread would.',
    },
  ];
}

export const DAY_NAMES: Record<Weekday, { short: string; long: string }> = {
  mon: { short: 'Mon', long: 'Monday' },
  tue: { short: 'Tue', long: 'Tuesday' },
  wed: { short: 'Wed', long: 'Wednesday' },
  thu: { short: 'Thu', long: 'Thursday' },
  fri: { short: 'Fri', long: 'Friday' },
  sat: { short: 'Sat', long: 'Saturday' },
  sun: { short: 'Sun', long: 'Sunday' },
};

/** What "Add a window" starts with: weekdays, 08:00 to 21:00. */
export function newSendWindow(): SendWindow {
  return { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' };
}

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** A time as the browser's time field gives it (`HH:MM`, or `HH:MM:SS` with seconds) as the server takes it. */
function clockOf(value: string): string | null {
  const minutes = value.trim().slice(0, 5);
  return CLOCK.test(minutes) ? minutes : null;
}

export type SendingRulesInput = { ok: true; rules: SendingRulesChange } | { ok: false; error: string };

/** The Settings page's Sending form as the server takes it, or what is wrong with it, naming the window. */
export function parseSendingRules(draft: { routingMode: RoutingMode; stickyDays: string; sendWindows: SendWindow[] }): SendingRulesInput {
  const stickyText = draft.stickyDays.trim();
  const stickyDays = /^\d+$/.test(stickyText) ? Number(stickyText) : Number.NaN;
  if (!Number.isSafeInteger(stickyDays) || stickyDays < 1 || stickyDays > MAX_STICKY_DAYS) return { ok: false, error: `Sticky days must be a whole number from 1 to ${MAX_STICKY_DAYS}.` };
  if (draft.sendWindows.length > MAX_SEND_WINDOWS) return { ok: false, error: `At most ${MAX_SEND_WINDOWS} send windows can be set.` };
  const sendWindows: SendWindow[] = [];
  for (const [index, sendWindow] of draft.sendWindows.entries()) {
    const name = `Window ${index + 1}`;
    if (sendWindow.days.length === 0) return { ok: false, error: `${name} needs at least one day.` };
    const from = clockOf(sendWindow.from);
    const to = clockOf(sendWindow.to);
    if (from === null || to === null) return { ok: false, error: `${name} needs a start and an end time, like 08:00 and 21:00.` };
    sendWindows.push({ days: WEEKDAYS.filter((day) => sendWindow.days.includes(day)), from, to });
  }
  return { ok: true, rules: { routingMode: draft.routingMode, stickyDays, sendWindows } };
}

/** "Mon–Fri 08:00–21:00", "Sat, Sun 22:00–06:00 (past midnight)", "Every day 08:00–00:00 (until midnight)". */
export function sendWindowText(sendWindow: SendWindow): string {
  const { from, to } = sendWindow;
  const note = to === '00:00' || to === '24:00' ? ' (until midnight)' : to <= from ? ' (past midnight)' : '';
  return `${daysText(sendWindow.days)} ${from}–${to}${note}`;
}

/** "Mon–Fri", "Mon, Wed, Fri", "Every day": runs of three or more days joined with a dash. */
function daysText(days: readonly Weekday[]): string {
  const indexes = WEEKDAYS.map((day, index) => (days.includes(day) ? index : -1)).filter((index) => index >= 0);
  if (indexes.length === WEEKDAYS.length) return 'Every day';
  const runs: number[][] = [];
  for (const index of indexes) {
    const run = runs.at(-1);
    if (run && run.at(-1) === index - 1) run.push(index);
    else runs.push([index]);
  }
  const short = (index: number) => DAY_NAMES[WEEKDAYS[index]!].short;
  return runs.map((run) => (run.length >= 3 ? `${short(run[0]!)}–${short(run.at(-1)!)}` : run.map(short).join(', '))).join(', ');
}
