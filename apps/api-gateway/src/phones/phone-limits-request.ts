import { InvalidRequestError, MAX_JITTER_S, MAX_SIM_LIMIT, MAX_SIMS, MIN_SIM_LIMIT } from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';

/** A SIM limit to set: a whole number, or null to remove it; absent leaves it as it is. `number` as given, read later as a recipient is. */
export interface PhoneLimitsRequest {
  number?: string | null;
  dailyLimit?: number | null;
  perMinute?: number | null;
  monthlyRecipients?: number | null;
  jitter?: number | null;
  sims?: number;
}

const FIELDS = ['number', 'daily_limit', 'per_minute', 'monthly_recipients', 'jitter', 'sims'] as const;
const SETTABLE = 'number, daily_limit, per_minute, monthly_recipients, jitter and sims';

/**
 * PATCH /smsapi/phones/{id}: `{"number", "daily_limit", "per_minute", "monthly_recipients", "jitter", "sims"}`,
 * at least one. `number` is the phone's own number (text, or null to forget it). `daily_limit` 0 sends nothing that day; `per_minute` is at least 1;
 * `monthly_recipients` 0 sends to nobody new; `jitter` is 0 to 600 seconds; `sims` is 1 or 2 and
 * cannot be removed. Any other field is refused, so a misspelt limit is never silently ignored.
 */
export function parsePhoneLimits(body: unknown): PhoneLimitsRequest {
  const fields = jsonObjectOf(body, `a JSON object with one or more of ${SETTABLE}`);
  const unknown = Object.keys(fields).filter((name) => !(FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidRequestError(`unknown field ${unknown.map((name) => JSON.stringify(name)).join(', ')}: only ${SETTABLE} can be set`);
  if (!FIELDS.some((name) => name in fields)) throw new InvalidRequestError(`give one or more of ${SETTABLE}`);
  return {
    ...('number' in fields ? { number: numberText(fields['number']) } : {}),
    ...('daily_limit' in fields ? { dailyLimit: simLimit('daily_limit', fields['daily_limit'], MIN_SIM_LIMIT.dailyLimit, MAX_SIM_LIMIT, 'no limit') } : {}),
    ...('per_minute' in fields ? { perMinute: simLimit('per_minute', fields['per_minute'], MIN_SIM_LIMIT.perMinute, MAX_SIM_LIMIT, 'no limit') } : {}),
    ...('monthly_recipients' in fields ? { monthlyRecipients: simLimit('monthly_recipients', fields['monthly_recipients'], MIN_SIM_LIMIT.monthlyRecipients, MAX_SIM_LIMIT, 'no cap') } : {}),
    ...('jitter' in fields ? { jitter: simLimit('jitter', fields['jitter'], 0, MAX_JITTER_S, 'no extra pause') } : {}),
    ...('sims' in fields ? { sims: simCount(fields['sims']) } : {}),
  };
}

function simLimit(name: string, value: unknown, min: number, max: number, nullMeans: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new InvalidRequestError(`${name} must be a whole number from ${min} to ${max}, or null for ${nullMeans}`);
  if (value < min) throw new InvalidRequestError(`${name} must be at least ${min}, got ${value}`);
  if (value > max) throw new InvalidRequestError(`${name} must be at most ${max}, got ${value}`);
  return value;
}

function simCount(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_SIMS) throw new InvalidRequestError(`sims must be 1 or ${MAX_SIMS}: the SIMs the phone sends from`);
  return value;
}

function numberText(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidRequestError("number must be the phone's own number as text, e.g. \"+381641234567\", or null to forget it");
  return value;
}
