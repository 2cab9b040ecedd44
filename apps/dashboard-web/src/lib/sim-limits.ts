import { MAX_SIM_LIMIT, type SimLimits } from '@smsq/dashboard-api';

export type LimitsInput = { ok: true; limits: Required<SimLimits> } | { ok: false; error: string };

/** One limit as typed: empty is no limit (null); otherwise a whole number from `min` to 100,000. */
function limitOf(label: string, text: string, min: number): { ok: true; value: number | null } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const value = /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > MAX_SIM_LIMIT) {
    return { ok: false, error: `${label} must be a whole number from ${min} to ${MAX_SIM_LIMIT.toLocaleString('en')}, or empty for no limit.` };
  }
  return { ok: true, value };
}

/** The Phones and Gateways pages' limits form: both fields, each a number or empty (no limit). */
export function parseLimitsInput(daily: string, perMinute: string): LimitsInput {
  const dailyLimit = limitOf('The daily limit', daily, 0);
  if (!dailyLimit.ok) return dailyLimit;
  const pace = limitOf('The per-minute pace', perMinute, 1);
  if (!pace.ok) return pace;
  return { ok: true, limits: { dailyLimit: dailyLimit.value, perMinute: pace.value } };
}

/** "500 a day · 10 a minute", "no limits". */
export function limitsText(limits: { dailyLimit: number | null; perMinute: number | null }): string {
  const parts = [limits.dailyLimit === null ? null : `${limits.dailyLimit.toLocaleString('en')} a day`, limits.perMinute === null ? null : `${limits.perMinute.toLocaleString('en')} a minute`].filter((part) => part !== null);
  return parts.length === 0 ? 'No limits' : parts.join(' · ');
}
