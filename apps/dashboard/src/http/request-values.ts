import { InvalidRequestError, NotFoundError } from '@smsq/contracts';

const MAX_STORED_ID = 2_147_483_647;

/** A path id: anything that cannot name a stored row names nothing (404), never a 400 or a 500. */
export function entityIdOf(raw: string, what: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_STORED_ID) throw new NotFoundError(what);
  return id;
}

/** A bigint id from the path, kept as its digits; anything else names nothing. */
export function bigIdOf(raw: string, what: string): string {
  if (!/^[1-9]\d{0,17}$/.test(raw)) throw new NotFoundError(what);
  return raw;
}

/** An optional query value: absent or empty is undefined; a repeated parameter is refused. */
export function queryText(query: unknown, name: string, maxLength: number): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(`${name} must be given once`);
  const text = value.trim();
  if (text === '') return undefined;
  if (text.length > maxLength) throw new InvalidRequestError(`${name} must be at most ${maxLength} characters`);
  return text;
}

/** `page`: 1 when absent. */
export function queryPage(query: unknown): number {
  const text = queryText(query, 'page', 7);
  if (text === undefined) return 1;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidRequestError('page must be a positive integer');
  return Number(text);
}
