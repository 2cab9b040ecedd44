import { PassphraseKeyring } from '@smsq/message-crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { batchAnswers, harness, pendingTask, POLL, pollAnswers, REPORT, REPORTS, SEND, TOKEN, type Harness } from '../testing/worker-harness.js';
import { DeliveryWorker } from './delivery-worker.js';

const PASSPHRASE = 'correct horse battery staple';
/** 210 GSM-7 characters: two SMS parts, where smsq's claim says one. */
const TEXT = 'Your code is 482913. '.repeat(10);
const NO_PASSPHRASE = 'cannot decrypt: no passphrase is configured on this worker (WORKER_PASSPHRASE, WORKER_PASSPHRASE_FILE or pair --passphrase)';
const WRONG_PASSPHRASE = 'cannot decrypt: the passphrase is wrong or the message was altered';

const sentMessages = (sut: Harness) => sut.gateway.requestsTo(SEND).map((request) => request.body as { id: number; message: string });

describe(`${DeliveryWorker.name} with encrypted tasks`, () => {
  let sealed: string;
  let sealedElsewhere: string;
  let sut: Harness;

  beforeAll(async () => {
    sealed = await new PassphraseKeyring(PASSPHRASE).seal(TEXT);
    sealedElsewhere = await new PassphraseKeyring('another client entirely').seal('Not yours');
  });

  afterEach(async () => {
    await sut?.close();
    // Whatever happened, neither the token, the passphrase nor a decrypted text reaches a log line.
    const logged = sut.logger.lines.join('\n');
    for (const secret of [TOKEN, PASSPHRASE, TEXT.trim(), 'Not yours']) expect(logged).not.toContain(secret);
  });

  const encryptedTask = (gatewayUrl: string, overrides: Record<string, unknown> = {}) => pendingTask(gatewayUrl, { message: sealed, encrypted: true, parts: 1, ...overrides });

  it('hands the phone the decrypted text and reports it sent with the parts of that text', async () => {
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE } });
    sut.smsq.route(POLL, pollAnswers({ status: 200, body: encryptedTask(sut.gateway.url) }));
    sut.start();

    const report = await sut.smsq.waitForRequest(REPORT);

    expect(sentMessages(sut)).toEqual([{ id: 7, recipient: '+381641234567', message: TEXT }]);
    expect(report.body).toEqual({ id: 7, status: 'sent', segments: 2, next: true });
    await sut.logger.waitForLine(/reported task=7 status=sent/);
    expect(sut.logger.lines).toEqual(
      expect.arrayContaining(['log claimed loop=1 task=7 encrypted=true attempt=1 phone=3 client=2 scheduled_at="2026-05-04 10:00:00"', 'log decrypted loop=1 task=7 parts=2', 'log sent loop=1 task=7 message_id=msg-1']),
    );
  });

  it('keeps a plain task exactly as before: its text as given, no segments', async () => {
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE } });
    // Text that looks sealed is still plain text when the task does not say `encrypted`.
    sut.smsq.route(POLL, pollAnswers({ status: 200, body: pendingTask(sut.gateway.url, { message: sealed, encrypted: false }) }));
    sut.start();

    const report = await sut.smsq.waitForRequest(REPORT);

    expect(sentMessages(sut).map((send) => send.message)).toEqual([sealed]);
    expect(report.body).toEqual({ id: 7, status: 'sent', next: true });
  });

  it('reports an encrypted task failed, cannot_decrypt, without retry, when no passphrase is configured, and goes on with the next task', async () => {
    sut = await harness();
    sut.smsq.route(POLL, pollAnswers({ status: 200, body: encryptedTask(sut.gateway.url) }, { status: 200, body: pendingTask(sut.gateway.url, { id: 8 }) }));
    sut.start();

    await sut.smsq.waitForRequest(REPORT, 2);

    expect(sut.smsq.requestsTo(REPORT).map((request) => request.body)).toEqual([
      { id: 7, status: 'failed', error: NO_PASSPHRASE, reason: 'cannot_decrypt', next: true },
      { id: 8, status: 'sent', next: true },
    ]);
    expect(sentMessages(sut).map((send) => send.id)).toEqual([8]);
    expect(sut.logger.lines).toContain(`error cannot send loop=1 task=7 encrypted=true error=${JSON.stringify(NO_PASSPHRASE)}`);
  });

  it.each([
    ['the passphrase is another', () => ({ env: { WORKER_PASSPHRASE: 'Correct horse battery staple' }, message: sealed, error: WRONG_PASSPHRASE })],
    ['the message was sealed with another passphrase', () => ({ env: { WORKER_PASSPHRASE: PASSPHRASE }, message: sealedElsewhere, error: WRONG_PASSPHRASE })],
    ['the message was altered', () => ({ env: { WORKER_PASSPHRASE: PASSPHRASE }, message: `${sealed.slice(0, -3)}${sealed.endsWith('AAA') ? 'BBB' : 'AAA'}`, error: WRONG_PASSPHRASE })],
    ['the message is damaged', () => ({ env: { WORKER_PASSPHRASE: PASSPHRASE }, message: sealed.replace('$smsq$1$', '$smsq$1$x'), error: 'cannot decrypt: the encrypted message is damaged: its key id is 23 characters long; it must be 22' })],
    ['the message is not sealed at all', () => ({ env: { WORKER_PASSPHRASE: PASSPHRASE }, message: 'Hello in the clear', error: 'cannot decrypt: the task is marked encrypted but its message is not an encrypted (sealed) message' })],
  ])('reports failed, cannot_decrypt, and hands the phone nothing when %s', async (_, made) => {
    const { env, message, error } = made();
    sut = await harness({ env });
    sut.smsq.route(POLL, pollAnswers({ status: 200, body: encryptedTask(sut.gateway.url, { message }) }));
    sut.start();

    const report = await sut.smsq.waitForRequest(REPORT);

    expect(report.body).toEqual({ id: 7, status: 'failed', error, reason: 'cannot_decrypt', next: true });
    expect(sentMessages(sut)).toEqual([]);
    await sut.logger.waitForLine(/reported task=7 status=failed reason=cannot_decrypt attempt=1/);
    expect(sut.smsq.requestsTo(REPORT)).toHaveLength(1);
  });

  it('reports a batch with the parts of each decrypted text and the tasks it could not open failed', async () => {
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE, WORKER_CLAIM_LIMIT: '5' } });
    sut.smsq.route(POLL, batchAnswers([encryptedTask(sut.gateway.url, { id: 7 }), encryptedTask(sut.gateway.url, { id: 8, message: sealedElsewhere }), pendingTask(sut.gateway.url, { id: 9 })]));
    sut.smsq.route(REPORTS, (request) => {
      const { reports } = request.body as { reports: Array<{ id: number; status: string }> };
      return { status: 200, body: { results: reports.map((report) => ({ ok: true, id: report.id, status: report.status })), tasks: [] } };
    });
    sut.start();

    const report = await sut.smsq.waitForRequest(REPORTS);

    expect(report.body).toEqual({
      reports: [
        { id: 7, status: 'sent', segments: 2 },
        { id: 8, status: 'failed', error: WRONG_PASSPHRASE, reason: 'cannot_decrypt' },
        { id: 9, status: 'sent' },
      ],
      next: 5,
    });
    expect(sentMessages(sut).map((send) => [send.id, send.message])).toEqual([
      [7, TEXT],
      [9, 'Hello from smsq'],
    ]);
  });

  it('paces an encrypted task by the parts of its text, not the one part smsq names', async () => {
    // 600 parts a minute: 100 ms a part. The first text is three parts, so the next send waits 300 ms.
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE, WORKER_SENDS_PER_MINUTE: '600' } });
    const threeParts = await new PassphraseKeyring(PASSPHRASE).seal('x'.repeat(400));
    sut.smsq.route(POLL, pollAnswers({ status: 200, body: encryptedTask(sut.gateway.url, { message: threeParts }) }, { status: 200, body: pendingTask(sut.gateway.url, { id: 8 }) }));
    sut.start();

    await sut.smsq.waitForRequest(REPORT, 2);

    const [first = 0, second = 0] = sut.gateway.requestsTo(SEND).map((request) => request.at);
    expect((sut.smsq.requestsTo(REPORT)[0]?.body as { segments?: number }).segments).toBe(3);
    // Halfway between three parts' spacing (300 ms) and one part's (100 ms), as the pace specs tell paces apart.
    expect(second - first).toBeGreaterThanOrEqual((300 + 100) / 2);
  });

  it('refuses, unsent, a decrypted text longer than create-task takes', async () => {
    sut = await harness({ env: { WORKER_PASSPHRASE: PASSPHRASE } });
    const tooLong = await new PassphraseKeyring(PASSPHRASE).seal('😀'.repeat(1601));
    sut.smsq.route(POLL, pollAnswers({ status: 200, body: encryptedTask(sut.gateway.url, { message: tooLong }) }));
    sut.start();

    const report = await sut.smsq.waitForRequest(REPORT);

    expect(report.body).toEqual({ id: 7, status: 'failed', error: 'the decrypted message is 1601 characters; the most is 1600', next: true });
    expect(sentMessages(sut)).toEqual([]);
  });
});
