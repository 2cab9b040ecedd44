import { MAX_JITTER_S, MAX_SIMS, MAX_SIM_LIMIT, type PauseReason, type SimLimits, type SimUsage } from '@smsq/dashboard-api';
import { wallClockIn } from './format';

export type LimitsInput = { ok: true; limits: Required<SimLimits> } | { ok: false; error: string };

/** The limits form as typed: each field's text (empty is no limit). */
export interface LimitsDraft {
  dailyLimit: string;
  perMinute: string;
  monthlyRecipients: string;
  jitter: string;
  sims: string;
}

/** One limit as typed: empty is none (null); otherwise a whole number from `min` to `max`. */
function limitOf(text: string, min: number, max: number, refusal: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const value = /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) return { ok: false, error: refusal };
  return { ok: true, value };
}

const TOP = MAX_SIM_LIMIT.toLocaleString('en');

/** The form's fields in order, each read and refused as the server would, so the first broken one is named. */
const FIELDS = [
  { field: 'dailyLimit', min: 0, max: MAX_SIM_LIMIT, refusal: `The daily limit must be a whole number from 0 to ${TOP}, or empty for no limit.` },
  { field: 'perMinute', min: 1, max: MAX_SIM_LIMIT, refusal: `The per-minute pace must be a whole number from 1 to ${TOP}, or empty for no limit.` },
  { field: 'monthlyRecipients', min: 0, max: MAX_SIM_LIMIT, refusal: `The monthly recipients cap must be a whole number from 0 to ${TOP}, or empty for no cap.` },
  { field: 'jitter', min: 0, max: MAX_JITTER_S, refusal: `The jitter must be a whole number of seconds from 0 to ${MAX_JITTER_S}, or empty for none.` },
] as const;

/** The Phones and Gateways pages' limits form: every field, each a number or empty (none); SIMs 1 or 2. */
export function parseLimitsInput(draft: LimitsDraft): LimitsInput {
  const limits: Partial<Required<SimLimits>> = {};
  for (const { field, min, max, refusal } of FIELDS) {
    const parsed = limitOf(draft[field], min, max, refusal);
    if (!parsed.ok) return parsed;
    limits[field] = parsed.value;
  }
  const sims = limitOf(draft.sims, 1, MAX_SIMS, `SIMs must be 1 or ${MAX_SIMS}.`);
  if (!sims.ok || sims.value === null) return { ok: false, error: `SIMs must be 1 or ${MAX_SIMS}.` };
  return { ok: true, limits: { ...(limits as Omit<Required<SimLimits>, 'sims'>), sims: sims.value } };
}

/** The form's fields filled with what is set now. */
export function limitsDraftOf(row: Pick<SimUsage, 'dailyLimit' | 'perMinute' | 'monthlyRecipients' | 'jitter' | 'sims'>): LimitsDraft {
  const text = (value: number | null) => (value === null ? '' : String(value));
  return { dailyLimit: text(row.dailyLimit), perMinute: text(row.perMinute), monthlyRecipients: text(row.monthlyRecipients), jitter: text(row.jitter), sims: String(row.sims) };
}

const count = (value: number) => value.toLocaleString('en');

/** "500 a day · 10 a minute (SMS parts) · 150 recipients a month · up to 20 s jitter · 2 SIMs", "No limits". */
export function limitsText(limits: Pick<SimUsage, 'dailyLimit' | 'perMinute'> & Partial<Pick<SimUsage, 'monthlyRecipients' | 'jitter' | 'sims'>>): string {
  const pace = [limits.dailyLimit === null ? null : `${count(limits.dailyLimit)} a day`, limits.perMinute === null ? null : `${count(limits.perMinute)} a minute`].filter((part) => part !== null);
  const parts = [
    pace.length > 0 ? `${pace.join(' · ')} (SMS parts)` : null,
    limits.monthlyRecipients === null || limits.monthlyRecipients === undefined ? null : `${count(limits.monthlyRecipients)} recipients a month`,
    limits.jitter === null || limits.jitter === undefined || limits.jitter === 0 ? null : `up to ${count(limits.jitter)} s jitter`,
    limits.sims === undefined || limits.sims === 1 ? null : `${limits.sims} SIMs`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? 'No limits' : parts.join(' · ');
}

/** What the daily limit counts so far: "120 / 500 parts", "120 parts, no limit". */
export function partsTodayText(row: Pick<SimUsage, 'partsToday' | 'dailyLimit'>): string {
  return row.dailyLimit === null ? `${count(row.partsToday)} parts, no limit` : `${count(row.partsToday)} / ${count(row.dailyLimit)} parts`;
}

/** What the recipient cap counts so far: "45 / 150 recipients", "45 recipients, no cap". */
export function recipientsThisMonthText(row: Pick<SimUsage, 'recipientsThisMonth' | 'monthlyRecipients'>): string {
  const noun = (value: number) => (value === 1 ? 'recipient' : 'recipients');
  return row.monthlyRecipients === null
    ? `${count(row.recipientsThisMonth)} ${noun(row.recipientsThisMonth)}, no cap`
    : `${count(row.recipientsThisMonth)} / ${count(row.monthlyRecipients)} ${noun(row.monthlyRecipients)}`;
}

const PAUSE_REASONS: Record<PauseReason, string> = { carrier_volume: 'the carrier refused for volume' };

/**
 * "Paused until 14:35, the carrier refused for volume", in `timeZone`, with the date when it is
 * not today there; null when it is not paused (or the pause is over and the list not read again).
 */
export function pauseText(row: Pick<SimUsage, 'pausedUntil' | 'pauseReason'>, timeZone: string, now: Date = new Date()): string | null {
  if (row.pausedUntil === null || Date.parse(row.pausedUntil) <= now.getTime()) return null;
  const until = wallClockIn(row.pausedUntil, timeZone);
  const today = wallClockIn(now.toISOString(), timeZone);
  if (until === null) return null;
  const when = today !== null && until.slice(0, 10) === today.slice(0, 10) ? until.slice(11, 16) : until.slice(0, 16);
  const reason = row.pauseReason === null ? undefined : PAUSE_REASONS[row.pauseReason];
  return `Paused until ${when}${reason ? `, ${reason}` : ''}`;
}
