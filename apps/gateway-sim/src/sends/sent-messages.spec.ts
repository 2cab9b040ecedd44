import { describe, expect, it } from 'vitest';
import { SentMessages, type SentMessage } from './sent-messages.js';

function sent(id: number): SentMessage {
  return { message_id: `m${id}`, id, recipient: '+381641234567', message: `message ${id}`, status: 'sent', received_at: '2026-05-04T10:00:00.000Z' };
}

describe(SentMessages.name, () => {
  it('lists newest first and keeps only the last ones', () => {
    const sut = new SentMessages(3);

    for (let id = 1; id <= 5; id++) sut.remember(sent(id));

    expect(sut.newestFirst().map((message) => message.id)).toEqual([5, 4, 3]);
  });
});
