import { PassphraseKeyring } from '@smsq/message-crypto';
import { describe, expect, it } from 'vitest';
import type { ReceivedSms } from '../drivers/phone-driver.js';
import { recordingLog } from '../testing/recording-log.js';
import { ReplyForwarder, syncBatches } from './reply-forwarder.js';
import { ReplySealer, type InboundReply } from './reply-sealer.js';

const PASSPHRASE = 'correct horse battery staple';

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

  describe('with replies sealed (WORKER_ENCRYPT_REPLIES)', () => {
    const keyring = new PassphraseKeyring(PASSPHRASE);
    const ownWords = { current: async () => ({ optOutWords: ['ODJAVA'], optInWords: ['PRIJAVA'] }) };
    const reply = (message: string, index: number): ReceivedSms => ({ from: '+381641234567', message, receivedAt: '2026-11-23T10:00:00.000Z', externalId: `smsgate:${index}` });

    it('posts each reply sealed, opening back to its text, marked with the keyword its text is: standard or the client\'s own', async () => {
      const texts = ['Stop.', 'odjava', 'START', 'Prijava!', 'Thanks, see you at 5', 'STOP sending me these'];
      const posted: InboundReply[] = [];
      const sut = new ReplyForwarder({ postInbound: async (batch) => (posted.push(...batch), { kind: 'accepted' }) }, recordingLog().log, new ReplySealer(keyring, ownWords));

      await sut.sink(texts.map(reply));

      expect(posted.map(({ encrypted, keyword, from, receivedAt, externalId }) => ({ encrypted, keyword, from, receivedAt, externalId }))).toEqual(
        ['opt_out', 'opt_out', 'opt_in', 'opt_in', undefined, undefined].map((keyword, index) => ({ encrypted: true, keyword, from: '+381641234567', receivedAt: '2026-11-23T10:00:00.000Z', externalId: `smsgate:${index}` })),
      );
      const opener = new PassphraseKeyring(PASSPHRASE);
      expect(await Promise.all(posted.map((sealed) => opener.open(sealed.message)))).toEqual(texts);
      expect(posted.some((sealed) => texts.includes(sealed.message))).toBe(false);
    });

    it('offers the replies again, never in the clear, when they cannot be sealed', async () => {
      const posted: InboundReply[] = [];
      const broken = { seal: async () => Promise.reject(new Error('WebCrypto is not available')) };
      const sut = new ReplyForwarder({ postInbound: async (batch) => (posted.push(...batch), { kind: 'accepted' }) }, recordingLog().log, broken);

      await expect(sut.sink([reply('STOP', 0)])).rejects.toThrow('WebCrypto is not available');
      expect(posted).toEqual([]);
    });

    it('keeps each batch under the body limit as sealed', async () => {
      const posted: InboundReply[][] = [];
      const sut = new ReplyForwarder({ postInbound: async (batch) => (posted.push(batch), { kind: 'accepted' }) }, recordingLog().log, new ReplySealer(keyring, ownWords));

      await sut.sink(replies(60, 1_000));

      expect(posted.length).toBeGreaterThan(1);
      for (const batch of posted) expect(Buffer.byteLength(JSON.stringify({ messages: batch }))).toBeLessThan(64 * 1024);
    });
  });
});
