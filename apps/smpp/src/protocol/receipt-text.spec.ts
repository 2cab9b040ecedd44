import { describe, expect, it } from 'vitest';
import { MessageState } from './message-state.js';
import { MESSAGE_STATE_BY_STAT, receiptText } from './receipt-text.js';

describe(receiptText.name, () => {
  const facts = {
    messageId: '0190b4a4-6c7e-7000-8000-000000000001',
    submittedAt: new Date('2026-05-01T09:05:59.999Z'),
    doneAt: new Date('2026-05-01T23:59:00Z'),
    error: 0,
    text: 'Your code is 123456. Do not share it.',
  };

  it('writes the SMPP 3.4 Appendix B format with dates in UTC and the first 20 characters', () => {
    expect(receiptText({ ...facts, stat: 'DELIVRD' })).toBe(
      'id:0190b4a4-6c7e-7000-8000-000000000001 sub:001 dlvrd:001 submit date:2605010905 done date:2605012359 stat:DELIVRD err:000 text:Your code is 123456.',
    );
  });

  it('counts nothing delivered and pads the error to three digits when the message failed', () => {
    expect(receiptText({ ...facts, stat: 'UNDELIV', error: 34 })).toContain(' dlvrd:000 ');
    expect(receiptText({ ...facts, stat: 'UNDELIV', error: 34 })).toContain(' stat:UNDELIV err:034 text:');
  });

  it('keeps the receipt in GSM 03.38 whatever the message said', () => {
    expect(receiptText({ ...facts, stat: 'EXPIRED', text: 'Ђ😀 ok €' })).toMatch(/ text:\?\? ok €$/);
  });

  it('pairs each stat with its message_state', () => {
    expect(MESSAGE_STATE_BY_STAT).toEqual({
      DELIVRD: MessageState.DELIVERED,
      ACCEPTD: MessageState.ACCEPTED,
      UNDELIV: MessageState.UNDELIVERABLE,
      EXPIRED: MessageState.EXPIRED,
      REJECTD: MessageState.REJECTED,
    });
    expect(MessageState).toMatchObject({ ENROUTE: 1, DELIVERED: 2, EXPIRED: 3, DELETED: 4, UNDELIVERABLE: 5, ACCEPTED: 6, UNKNOWN: 7, REJECTED: 8 });
  });
});
