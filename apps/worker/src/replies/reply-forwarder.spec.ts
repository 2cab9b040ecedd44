import { describe, expect, it } from 'vitest';
import type { ReceivedSms } from '../drivers/phone-driver.js';
import { recordingLog } from '../testing/recording-log.js';
import { ReplyForwarder, syncBatches } from './reply-forwarder.js';

function replies(count: number, length = 10): ReceivedSms[] {
  return Array.from({ length: count }, (_, index) => ({ from: '+381641234567', message: 'x'.repeat(length), receivedAt: '2026-11-23T10:00:00.000Z', externalId: `smsgate:${index}` }));
}

describe(ReplyForwarder.name, () => {
  it('sends a backlog in batches smsq takes whole: at most 500 replies and under 64 KiB each', async () => {
    const sent: ReceivedSms[][] = [];
    const sut = new ReplyForwarder({ postInbound: async (batch) => (sent.push(batch), { kind: 'accepted' }) }, recordingLog().log);

    await sut.sink(replies(1_201));

    expect(sent.map((batch) => batch.length)).toEqual([500, 500, 201]);
    expect(sent.flat().map((reply) => reply.externalId)).toEqual(replies(1_201).map((reply) => reply.externalId));
  });

  it('keeps every batch under the body limit however long the replies', () => {
    const batches = syncBatches(replies(100, 1_600));

    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) expect(Buffer.byteLength(JSON.stringify({ messages: batch }))).toBeLessThan(64 * 1024);
    expect(batches.flat()).toHaveLength(100);
  });

  it('offers the rest again when smsq cannot take a batch now', async () => {
    let calls = 0;
    const sut = new ReplyForwarder({ postInbound: async () => (++calls === 2 ? { kind: 'unreachable', reason: 'ECONNREFUSED' } : { kind: 'accepted' }) }, recordingLog().log);

    await expect(sut.sink(replies(600))).rejects.toThrow('smsq unreachable: ECONNREFUSED');
    expect(calls).toBe(2);
  });
});
