import { InvalidRequestError } from '@smsq/contracts';

/** Where a page newest first starts: right after the row of this instant and key. */
export interface PagePosition {
  at: Date;
  key: string;
}

/** Opaque to the caller: the last row's instant and key. */
export function pageCursorOf(at: string, key: string): string {
  return Buffer.from(`${at}|${key}`, 'utf8').toString('base64url');
}

/** The position a cursor of `pageCursorOf` names; anything else is a bad request. */
export function parsePageCursor(cursor: string): PagePosition {
  const [at, key, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const instant = new Date(at ?? '');
  if (rest.length > 0 || !key || Number.isNaN(instant.getTime())) throw new InvalidRequestError('cursor is not one this list gave');
  return { at: instant, key };
}
