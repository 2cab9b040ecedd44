import { InvalidRequestError, MAX_SIM_LIMIT, MIN_SIM_LIMIT } from '@smsq/contracts';
import { jsonObjectOf } from '../http/json-body.js';

/** A SIM limit to set: a whole number, or null to remove it; absent leaves it as it is. */
export interface PhoneLimitsRequest {
  dailyLimit?: number | null;
  perMinute?: number | null;
}

const FIELDS = ['daily_limit', 'per_minute'] as const;

/**
 * PATCH /smsapi/phones/{id}: `{"daily_limit": int | null, "per_minute": int | null}`, at least one.
 * `daily_limit` 0 sends nothing that day; `per_minute` is at least 1. Any other field is refused,
 * so a misspelt limit is never silently ignored.
 */
export function parsePhoneLimits(body: unknown): PhoneLimitsRequest {
  const fields = jsonObjectOf(body, 'a JSON object with daily_limit, per_minute or both');
  const unknown = Object.keys(fields).filter((name) => !(FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidRequestError(`unknown field ${unknown.map((name) => JSON.stringify(name)).join(', ')}: only daily_limit and per_minute can be set`);
  if (!FIELDS.some((name) => name in fields)) throw new InvalidRequestError('give daily_limit, per_minute or both');
  return {
    ...('daily_limit' in fields ? { dailyLimit: simLimit('daily_limit', fields['daily_limit'], MIN_SIM_LIMIT.dailyLimit) } : {}),
    ...('per_minute' in fields ? { perMinute: simLimit('per_minute', fields['per_minute'], MIN_SIM_LIMIT.perMinute) } : {}),
  };
}

function simLimit(name: string, value: unknown, min: number): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new InvalidRequestError(`${name} must be a whole number from ${min} to ${MAX_SIM_LIMIT}, or null for no limit`);
  if (value < min) throw new InvalidRequestError(`${name} must be at least ${min}, got ${value}`);
  if (value > MAX_SIM_LIMIT) throw new InvalidRequestError(`${name} must be at most ${MAX_SIM_LIMIT}, got ${value}`);
  return value;
}
