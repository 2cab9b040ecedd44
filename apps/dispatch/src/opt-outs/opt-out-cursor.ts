import { InvalidRequestError, type OptOutView } from '@smsq/contracts';
import type { OptOutPosition } from './opt-outs.repository.js';

/** Opaque to clients: the last row's time and number, so the next page starts right after it. */
export function optOutCursorOf(last: OptOutView): string {
  return Buffer.from(`${last.optedOutAt}|${last.number}`, 'utf8').toString('base64url');
}

export function parseOptOutCursor(cursor: string): OptOutPosition {
  const [at, number, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const changedAt = new Date(at ?? '');
  if (rest.length > 0 || number === undefined || !/^\+\d{7,15}$/.test(number) || Number.isNaN(changedAt.getTime())) {
    throw new InvalidRequestError('cursor is not one this list gave');
  }
  return { changedAt, number };
}
