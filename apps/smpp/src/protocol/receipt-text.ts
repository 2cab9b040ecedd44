import { MessageState, type MessageStateValue } from './message-state.js';
import { gsmSeptetsOf } from './text-coding.js';

/** The stat word of a receipt text. */
export type ReceiptStat = 'DELIVRD' | 'ACCEPTD' | 'UNDELIV' | 'EXPIRED' | 'REJECTD';

export const MESSAGE_STATE_BY_STAT: Readonly<Record<ReceiptStat, MessageStateValue>> = {
  DELIVRD: MessageState.DELIVERED,
  ACCEPTD: MessageState.ACCEPTED,
  UNDELIV: MessageState.UNDELIVERABLE,
  EXPIRED: MessageState.EXPIRED,
  REJECTD: MessageState.REJECTED,
};

export interface ReceiptFacts {
  messageId: string;
  stat: ReceiptStat;
  submittedAt: Date;
  doneAt: Date;
  /** Network or smsq error code, 0 when none; written as three digits. */
  error: number;
  /** The message's text; its first 20 characters go in the receipt, each outside GSM 03.38 as '?'. */
  text: string;
}

const TEXT_CHARACTERS = 20;

/**
 * The short_message of a delivery receipt in the format of SMPP 3.4 Appendix B, which SMPP clients
 * (Kannel among them) parse: id, sub, dlvrd, submit date, done date, stat, err, text.
 */
export function receiptText(facts: ReceiptFacts): string {
  const delivered = facts.stat === 'DELIVRD' ? '001' : '000';
  const error = String(Math.min(Math.max(Math.trunc(facts.error), 0), 999)).padStart(3, '0');
  // Clients find the receipt's fields in GSM or ASCII text, so the receipt must stay data_coding 0.
  const text = [...facts.text]
    .slice(0, TEXT_CHARACTERS)
    .map((character) => (gsmSeptetsOf(character) ? character : '?'))
    .join('');
  return `id:${facts.messageId} sub:001 dlvrd:${delivered} submit date:${receiptDate(facts.submittedAt)} done date:${receiptDate(facts.doneAt)} stat:${facts.stat} err:${error} text:${text}`;
}

/** YYMMDDhhmm in UTC. */
export function receiptDate(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}
