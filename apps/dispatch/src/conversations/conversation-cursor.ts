import { InvalidRequestError, type ConversationView } from '@smsq/contracts';
import type { ConversationPosition } from './conversations.repository.js';

/** Opaque to the dashboard: the last thread's time and number, so the next page starts right after it. */
export function conversationCursorOf(last: ConversationView): string {
  return Buffer.from(`${last.lastAt}|${last.number}`, 'utf8').toString('base64url');
}

export function parseConversationCursor(cursor: string): ConversationPosition {
  const [at, number, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const lastAt = new Date(at ?? '');
  if (rest.length > 0 || !number || Number.isNaN(lastAt.getTime())) throw new InvalidRequestError('cursor is not one this list gave');
  return { lastAt, number };
}
