import { NotFoundError } from '@smsq/contracts';

const MAX_SERIAL = 2_147_483_647;

/** Whether a number can be the id of a stored row (a SERIAL); any other number names nothing. */
export function isStoredId(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_SERIAL;
}

/** An id from a path: anything that cannot name a stored row names no row at all (404 for `what`). */
export function storedIdFromPath(raw: string, what: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!isStoredId(id)) throw new NotFoundError(what);
  return id;
}
