import { PassphraseKeyring } from '@smsq/message-crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PhoneDriver, ReceivedSms } from '../drivers/phone-driver.js';
import { harness, TOKEN, type Harness } from '../testing/worker-harness.js';
import { ReplyForwarder } from './reply-forwarder.js';

const PASSPHRASE = 'correct horse battery staple';
const INBOUND = 'POST /smsapi/inbound';
const REPLY_KEYWORDS = 'GET /smsapi/reply-keywords';
const TEXTS = ['Stop!', 'Odjava.', 'Thanks, see you at 5'];

/** A phone that hands these replies to the worker once, as a driver's reply watch does, and sends nothing. */
function phoneWithReplies(texts: string[]): PhoneDriver {
  const replies: ReceivedSms[] = texts.map((message, index) => ({ from: '+381641234567', message, receivedAt: '2026-11-23T10:00:00.000Z', externalId: `phone:${index}` }));
  return {
    name: 'stand-in phone',
    send: async () => ({ status: 'failed', error: 'this phone only receives' }),
    watchReplies: async (sink, signal) => {
      await sink(replies);
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  };
}

/** A phone that offers its replies again, as a driver's reply watch does, until the worker takes them. */
function phoneOfferingUntilTaken(texts: string[]): PhoneDriver {
  const replies: ReceivedSms[] = texts.map((message, index) => ({ from: '+381641234567', message, receivedAt: '2026-11-23T10:00:00.000Z', externalId: `phone:${index}` }));
  return {
    name: 'stand-in phone',
    send: async () => ({ status: 'failed', error: 'this phone only receives' }),
    watchReplies: async (sink, signal) => {
      while (!signal.aborted) {
        try {
          await sink(replies);
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
  };
}

interface PostedMessage {
  from: string;
  message: string;
  received_at: string;
  external_id: string;
  encrypted?: boolean;
  keyword?: string;
}

const postedMessages = async (sut: Harness) => ((await sut.smsq.waitForRequest(INBOUND)).body as { messages: PostedMessage[] }).messages;

describe(`${ReplyForwarder.name} in a worker`, () => {
  let sut: Harness;

  afterEach(async () => {
    await sut?.close();
    const logged = sut.logger.lines.join('\n');
    for (const secret of [TOKEN, PASSPHRASE, ...TEXTS]) expect(logged).not.toContain(secret);
  });

  it('posts replies sealed with the passphrase, marked with their keywords, the client\'s own read from smsq with the worker token', async () => {
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE, WORKER_ENCRYPT_REPLIES: 'true' }, driver: phoneWithReplies(TEXTS) });
    sut.smsq.route(REPLY_KEYWORDS, () => ({ status: 200, body: { opt_out_words: ['ODJAVA'], opt_in_words: [] } }));
    sut.smsq.route(INBOUND, () => ({ status: 200, body: { ok: true } }));
    sut.start();

    const messages = await postedMessages(sut);

    expect(sut.smsq.requestsTo(REPLY_KEYWORDS)[0]?.headers['x-worker-token']).toBe(TOKEN);
    expect(messages.map(({ message: _, ...rest }) => rest)).toEqual([
      { from: '+381641234567', received_at: '2026-11-23T10:00:00.000Z', external_id: 'phone:0', encrypted: true, keyword: 'opt_out' },
      { from: '+381641234567', received_at: '2026-11-23T10:00:00.000Z', external_id: 'phone:1', encrypted: true, keyword: 'opt_out' },
      { from: '+381641234567', received_at: '2026-11-23T10:00:00.000Z', external_id: 'phone:2', encrypted: true },
    ]);
    const opener = new PassphraseKeyring(PASSPHRASE);
    expect(await Promise.all(messages.map((posted) => opener.open(posted.message)))).toEqual(TEXTS);
    expect(sut.logger.lines).toContain('log replies synced count=3 encrypted=true');
  });

  it("holds sealed replies back while smsq cannot tell the client's own words, and marks them by those words once it does", async () => {
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE, WORKER_ENCRYPT_REPLIES: 'true' }, driver: phoneOfferingUntilTaken(TEXTS) });
    let asked = 0;
    sut.smsq.route(REPLY_KEYWORDS, () => (++asked <= 2 ? { status: 500, body: { error: 'internal', detail: 'try again' } } : { status: 200, body: { opt_out_words: ['ODJAVA'], opt_in_words: [] } }));
    sut.smsq.route(INBOUND, () => ({ status: 200, body: { ok: true } }));
    sut.start();

    const messages = await postedMessages(sut);

    expect(asked).toBeGreaterThanOrEqual(3);
    expect(sut.smsq.requestsTo(INBOUND)).toHaveLength(1);
    expect(messages.map((posted) => [posted.encrypted, posted.keyword])).toEqual([
      [true, 'opt_out'],
      [true, 'opt_out'],
      [true, undefined],
    ]);
    expect(sut.logger.lines.filter((line) => line.startsWith('warn reply keywords unavailable'))).toEqual([expect.stringContaining('reason="smsq answered 500: internal: try again"')]);
  });

  it('posts replies as before, in the clear and unmarked, while reply encryption is off', async () => {
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE }, driver: phoneWithReplies(TEXTS) });
    sut.smsq.route(INBOUND, () => ({ status: 200, body: { ok: true } }));
    sut.start();

    const messages = await postedMessages(sut);

    expect(messages).toEqual(TEXTS.map((message, index) => ({ from: '+381641234567', message, received_at: '2026-11-23T10:00:00.000Z', external_id: `phone:${index}` })));
    expect(sut.smsq.requestsTo(REPLY_KEYWORDS)).toEqual([]);
  });
});
