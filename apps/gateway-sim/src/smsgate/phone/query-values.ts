import { SmsGateBadRequest } from '../errors/smsgate-errors.js';

/** A query parameter's value (the first, when it is repeated). */
export function queryText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

/** Kotlin's `toBooleanStrict()`: exactly `true` or `false`, anything else refused. */
export function toBooleanStrict(value: unknown): boolean | undefined {
  const raw = queryText(value);
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new SmsGateBadRequest(`The string doesn't represent a boolean value: ${raw}`);
}

/** Kotlin's `toIntOrNull()`: a value that is not a 32-bit integer counts as absent. */
export function toIntOrNull(value: unknown): number | undefined {
  const raw = queryText(value);
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return undefined;
  const number = Number(raw);
  return number >= -(2 ** 31) && number <= 2 ** 31 - 1 ? number : undefined;
}
