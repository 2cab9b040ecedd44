import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '@smsq/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkerLog } from '../../logging/worker-log.js';
import { recordingLog, type RecordingLogger } from '../../testing/recording-log.js';
import type { OutgoingSms, ReceivedSms, ReplySink } from '../phone-driver.js';
import { SmsGateDriver, type SmsGateDriverOptions } from './smsgate-driver.js';
import { CREDENTIALS_REFUSED } from './smsgate-sender.js';
import { SmsGateStandIn, type StandInOptions } from './testing/smsgate-stand-in.js';

const RECIPIENT = '+381641234567';
const NO_SERVICE = 'Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)';
const RADIO_OFF = 'Send result: RESULT_ERROR_RADIO_OFF (Failed because radio was explicitly turned off)';
const NULL_PDU = 'Send result: RESULT_ERROR_NULL_PDU (Failed because no PDU provided)';
const GENERIC_FAILURE = 'Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)';
const NETWORK_REJECT = 'Send result: RESULT_NETWORK_REJECT (Failed because of network rejection)';
const LIMIT_EXCEEDED = 'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)';
const PASSWORD = 'gate-password';

describe(SmsGateDriver.name, () => {
  let phone: SmsGateStandIn;
  let stateDir: string;
  let log: WorkerLog;
  let logger: RecordingLogger;
  let stopping: AbortController;
  let running: Array<Promise<unknown>>;
  let sut: SmsGateDriver;

  beforeEach(async () => {
    phone = await SmsGateStandIn.start();
    stateDir = mkdtempSync(join(tmpdir(), 'smsgate-driver-'));
    ({ log, logger } = recordingLog());
    stopping = new AbortController();
    running = [];
    sut = driver();
  });

  afterEach(async () => {
    stopping.abort();
    await Promise.allSettled(running);
    await phone.close();
    rmSync(stateDir, { recursive: true, force: true });
    expect(logger.lines.join('\n')).not.toContain(PASSWORD);
  });

  function driver(overrides: Partial<SmsGateDriverOptions> = {}): SmsGateDriver {
    return new SmsGateDriver({
      user: 'sms',
      password: PASSWORD,
      gatewayUrl: phone.url,
      pollIntervalMs: 10,
      requestTimeoutMs: 1_000,
      inboxPollIntervalMs: 20,
      stateFile: join(stateDir, 'smsgate-replies.json'),
      log,
      ...overrides,
    });
  }

  function sms(overrides: Partial<OutgoingSms> = {}): OutgoingSms {
    // The phone knows each SMS by its key; here simply the task id, so the phone's ids read as the tasks'.
    return { taskId: 7, messageKey: String(overrides.taskId ?? 7), recipient: RECIPIENT, message: 'Hello from smsq', gatewayUrl: phone.url, claimDeadline: Date.now() + 300_000, ...overrides };
  }

  async function usePhone(options: StandInOptions): Promise<void> {
    await phone.close();
    phone = await SmsGateStandIn.start(options);
  }

  async function webhookOptions(publicHost = '127.0.0.1', signingKey?: string): Promise<NonNullable<SmsGateDriverOptions['webhook']>> {
    const port = await freePort();
    return { listenHost: '127.0.0.1', listenPort: port, publicUrl: `http://${publicHost}:${port}`, ...(signingKey === undefined ? {} : { signingKey }) };
  }

  function watch(driverUnderTest: SmsGateDriver, sink: ReplySink, signal = stopping.signal): Promise<void> {
    const watching = driverUnderTest.watchReplies(sink, AbortSignal.any([signal, stopping.signal]));
    running.push(watching);
    return watching;
  }

  function posts(): any[] {
    return phone.callsTo('POST', '/message');
  }

  describe('send', () => {
    it('follows a message the phone already has (an earlier attempt) instead of posting it again', async () => {
      phone.store('7', RECIPIENT, 'Sent');

      await expect(sut.send(sms(), stopping.signal)).resolves.toEqual({ status: 'sent', delivered: false, messageId: '7' });
      expect(posts()).toHaveLength(0);
      expect(phone.callsTo('GET', '/message/7')).toHaveLength(1);
    });

    it('answers failed, and posts nothing, when the phone\'s message with that id is another SMS', async () => {
      phone.store('7', '+381600000099', 'Sent');
      phone.store('8', RECIPIENT, 'Sent', 'someone else\'s text');

      await expect(sut.send(sms(), stopping.signal)).resolves.toEqual({ status: 'failed', error: 'the phone already has another message with id 7 (is a second smsq or sender using these ids?)' });
      await expect(sut.send(sms({ taskId: 8 }), stopping.signal)).resolves.toMatchObject({ status: 'failed' });
      expect(posts()).toHaveLength(0);
    });

    it('posts id, textMessage, the recipient, SIM, delivery-report flag and a ttl ending ttlMarginMs before the claim, skipping phone validation', async () => {
      sut = driver({ simNumber: 2, withDeliveryReport: false, ttlMarginMs: 30_000 });
      const claimDeadline = Date.now() + 120_000;

      const sending = sut.send(sms({ claimDeadline }), stopping.signal);
      await eventually(() => expect(posts()).toHaveLength(1));
      await phone.settle('7', 'Sent');

      await expect(sending).resolves.toEqual({ status: 'sent', delivered: false, messageId: '7' });
      const [post] = posts();
      expect(post.query.get('skipPhoneValidation')).toBe('true');
      expect(post.headers.authorization).toBe(`Basic ${Buffer.from(`sms:${PASSWORD}`).toString('base64')}`);
      expect(post.body).toEqual({ id: '7', textMessage: { text: 'Hello from smsq' }, phoneNumbers: [RECIPIENT], simNumber: 2, withDeliveryReport: false, ttl: expect.any(Number) });
      expect(post.body.ttl).toBeLessThanOrEqual(90);
      expect(post.body.ttl).toBeGreaterThanOrEqual(88);
    });

    it('sends from the SIM smsq chose for the task, over the worker\'s own', async () => {
      sut = driver({ simNumber: 1 });

      const sending = sut.send(sms({ sim: 2 }), stopping.signal);
      await eventually(() => expect(posts()).toHaveLength(1));
      await phone.settle('7', 'Sent');

      await expect(sending).resolves.toMatchObject({ status: 'sent' });
      expect(posts()[0].body.simNumber).toBe(2);
    });

    it('asks for delivery reports and leaves the SIM to the phone by default', async () => {
      const sending = sut.send(sms(), stopping.signal);
      await eventually(() => expect(posts()).toHaveLength(1));
      await phone.settle('7', 'Delivered');

      await expect(sending).resolves.toEqual({ status: 'sent', delivered: true, messageId: '7' });
      expect(posts()[0].body.withDeliveryReport).toBe(true);
      expect(posts()[0].body).not.toHaveProperty('simNumber');
    });

    it.each([
      ['an app before v1.39 (500: it reads only `message`)', { app: 'before-1.39' as const }, 500],
      ['an app refusing the textMessage shape with 400', {}, 400],
    ])('retries once with the deprecated `message` field for %s, and keeps that shape for the gateway', async (_, options, status) => {
      await usePhone(options);
      if (status === 400) phone.beforePost = (body) => (body.textMessage === undefined ? undefined : { status: 400, body: { message: 'Unknown field textMessage' } });
      sut = driver({ gatewayUrl: phone.url });

      const first = sut.send(sms({ gatewayUrl: phone.url }), stopping.signal);
      await eventually(() => expect(posts()).toHaveLength(2));
      await phone.settle('7', 'Sent');
      await expect(first).resolves.toMatchObject({ status: 'sent' });

      const [modern, legacy] = posts();
      expect(modern.body.textMessage).toEqual({ text: 'Hello from smsq' });
      expect(legacy.body).toMatchObject({ id: '7', message: 'Hello from smsq', phoneNumbers: [RECIPIENT] });
      expect(legacy.body).not.toHaveProperty('textMessage');
      // Before the retry the phone was asked again whether it had the message.
      expect(phone.callsTo('GET', '/message/7').length).toBeGreaterThanOrEqual(2);

      const second = sut.send(sms({ taskId: 8, gatewayUrl: phone.url }), stopping.signal);
      await eventually(() => expect(posts()).toHaveLength(3));
      await phone.settle('8', 'Sent');
      await expect(second).resolves.toMatchObject({ status: 'sent' });
      expect(posts()[2].body).toMatchObject({ id: '8', message: 'Hello from smsq' });
    });

    it('answers failed with the app\'s reason when the old shape is refused too', async () => {
      phone.beforePost = () => ({ status: 400, body: { message: 'SIM number cannot be less than 1' } });

      await expect(sut.send(sms(), stopping.signal)).resolves.toEqual({ status: 'failed', error: 'SMSGate refused the SMS: SMSGate answered 400: SIM number cannot be less than 1' });
      expect(posts()).toHaveLength(2);
    });

    it('follows the message when the app answers 409 (it has that id already)', async () => {
      phone.beforePost = (body) => {
        phone.store(String(body.id), RECIPIENT, 'Delivered');
        return { status: 409, body: { message: 'Message with id 7 already exists' } };
      };

      await expect(sut.send(sms(), stopping.signal)).resolves.toEqual({ status: 'sent', delivered: true, messageId: '7' });
      expect(posts()).toHaveLength(1);
    });

    it.each([
      ['Sent', null, { status: 'sent', delivered: false, messageId: '7' }],
      ['Delivered', null, { status: 'sent', delivered: true, messageId: '7' }],
      ['Failed', 'RESULT_ERROR_GENERIC_FAILURE', { status: 'failed', error: 'RESULT_ERROR_GENERIC_FAILURE' }],
      ['Failed', null, { status: 'failed', error: 'the phone reported the send failed' }],
      ['Cancelled', null, { status: 'failed', error: 'the SMS was cancelled on the phone' }],
      // The app's own words (MessagesService.kt) that the SMS never left the phone: smsq may send it from another.
      ...[NO_SERVICE, RADIO_OFF, NULL_PDU, 'Send result: RESULT_ERROR_RADIO_OFF', 'TTL expired', "Can't send message: SIM 2 not found"].map((error) => ['Failed', error, { status: 'failed', error, retry: true }] as const),
      // Android's limit on SMS sent: nothing was sent, and smsq pauses the phone.
      ...[LIMIT_EXCEEDED, 'Send result: RESULT_ERROR_LIMIT_EXCEEDED'].map((error) => ['Failed', error, { status: 'failed', error, retry: true, reason: 'carrier_volume' }] as const),
      // Final: a generic failure, an invalid number, a network rejection (a barred recipient), a failed delivery report.
      ...[GENERIC_FAILURE, 'sendSMS: Invalid phone number', NETWORK_REJECT, 'Delivery result: 4', 'the radio said RESULT_ERROR_NO_SERVICE later'].map((error) => ['Failed', error, { status: 'failed', error }] as const),
    ] as const)('maps the phone\'s %s (error %s) after Processed', async (state, error, outcome) => {
      const sending = sut.send(sms(), stopping.signal);
      await eventually(() => expect(posts()).toHaveLength(1));
      await phone.settle('7', 'Processed');
      await eventually(() => expect(phone.callsTo('GET', '/message/7').length).toBeGreaterThanOrEqual(3));
      await phone.settle('7', state, error);

      await expect(sending).resolves.toEqual(outcome);
    });

    it('keeps following through network errors until the phone answers', async () => {
      const sending = sut.send(sms(), stopping.signal);
      await eventually(() => expect(posts()).toHaveLength(1));
      phone.down = true;
      const callsBefore = phone.calls.length;
      await eventually(() => expect(phone.calls.length).toBeGreaterThan(callsBefore + 3));
      await phone.settle('7', 'Sent');
      phone.down = false;

      await expect(sending).resolves.toEqual({ status: 'sent', delivered: false, messageId: '7' });
    });

    it('answers failed with a hint naming the variables when the app refuses the user or password', async () => {
      sut = driver({ password: 'not-the-password' });

      await expect(sut.send(sms(), stopping.signal)).resolves.toEqual({ status: 'failed', error: CREDENTIALS_REFUSED });
      expect(CREDENTIALS_REFUSED).toBe('SMSGate refused the user or password (SMSGATE_USER / SMSGATE_PASSWORD)');
      expect(posts()).toHaveLength(0);
      expect(logger.lines.join('\n')).not.toContain('not-the-password');
    });

    it('never answers failed for a message still in progress when the claim is about to lapse: the outcome is unknown', async () => {
      phone.store('7', RECIPIENT, 'Processed');
      sut = driver({ reportReserveMs: 100 });

      const outcome = await sut.send(sms({ claimDeadline: Date.now() + 400 }), stopping.signal);

      expect(outcome).toEqual({ status: 'unknown', reason: 'the phone had not settled the SMS when the claim was about to lapse (still Processed)' });
      expect(posts()).toHaveLength(0);
    });

    it('answers unknown, not failed, when the worker stops while the phone still has the SMS', async () => {
      phone.store('7', RECIPIENT, 'Pending');
      const giveUp = new AbortController();

      const sending = sut.send(sms(), giveUp.signal);
      await eventually(() => expect(phone.callsTo('GET', '/message/7').length).toBeGreaterThanOrEqual(2));
      giveUp.abort();

      await expect(sending).resolves.toEqual({ status: 'unknown', reason: 'the worker stopped while the phone had the SMS (still Pending)' });
    });

    it('leaves the outcome unknown when the phone cannot be reached before the claim lapses', async () => {
      phone.down = true;
      sut = driver({ reportReserveMs: 100 });

      const outcome = await sut.send(sms({ claimDeadline: Date.now() + 400 }), stopping.signal);

      expect(outcome).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/^the phone did not take the SMS before the claim lapsed: SMSGate unreachable/) });
    });

    it('does not hand the SMS over when the claim lapses too soon for a useful ttl', async () => {
      const outcome = await sut.send(sms({ claimDeadline: Date.now() + 30_000 + 5_000 }), stopping.signal);

      expect(outcome).toEqual({ status: 'unknown', reason: 'the claim lapses too soon to hand the SMS to the phone' });
      expect(posts()).toHaveLength(0);
    });

    it('wakes early when the app\'s webhook says the message moved', async () => {
      const webhook = await webhookOptions();
      sut = driver({ pollIntervalMs: 60_000, webhook });
      void watch(sut, async () => undefined);
      await eventually(() => expect(phone.webhooks.size).toBe(4));

      let outcome: unknown;
      void sut.send(sms(), stopping.signal).then((answer) => (outcome = answer));
      await eventually(() => expect(phone.callsTo('GET', '/message/7')).toHaveLength(2));
      await phone.settle('7', 'Sent');
      // Emitted until it lands while the follower waits on its (minute-long) poll.
      await eventually(async () => {
        await phone.emit('sms:sent', { messageId: '7', recipient: RECIPIENT, sentAt: new Date().toISOString() });
        expect(outcome).toEqual({ status: 'sent', delivered: false, messageId: '7' });
      });
    });
  });

  describe('followDelivery', () => {
    it('is true once the phone has the delivery report', async () => {
      phone.store('7', RECIPIENT, 'Sent');
      const following = sut.followDelivery(sms(), stopping.signal);
      await eventually(() => expect(phone.callsTo('GET', '/message/7').length).toBeGreaterThanOrEqual(2));
      await phone.settle('7', 'Delivered');

      await expect(following).resolves.toBe(true);
    });

    it('is false when the report says failed, when it takes too long, or when none was asked for', async () => {
      phone.store('7', RECIPIENT, 'Failed');
      await expect(sut.followDelivery(sms(), stopping.signal)).resolves.toBe(false);

      phone.store('8', RECIPIENT, 'Sent');
      await expect(driver({ deliveryReportTimeoutMs: 100 }).followDelivery(sms({ taskId: 8 }), stopping.signal)).resolves.toBe(false);

      const asked = phone.calls.length;
      await expect(driver({ withDeliveryReport: false }).followDelivery(sms({ taskId: 8 }), stopping.signal)).resolves.toBe(false);
      expect(phone.calls.length).toBe(asked);
    });
  });

  describe('watchReplies', () => {
    it('registers its four webhooks with stable ids at the public URL', async () => {
      const webhook = await webhookOptions();
      void watch(driver({ webhook }), async () => undefined);

      await eventually(() => expect(phone.webhooks.size).toBe(4));
      const url = `${webhook.publicUrl}/smsgate/events`;
      expect([...phone.webhooks.values()].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: 'smsq-sms-delivered', event: 'sms:delivered', url },
        { id: 'smsq-sms-failed', event: 'sms:failed', url },
        { id: 'smsq-sms-received', event: 'sms:received', url },
        { id: 'smsq-sms-sent', event: 'sms:sent', url },
      ]);
    });

    it('hands each reply over once, from webhooks and the inbox alike, and nothing again after a restart', async () => {
      await phone.receiveSms('+381600000001', 'history before the first run', { at: new Date(Date.now() - 60_000), webhook: false });
      const webhook = await webhookOptions();
      const received: ReceivedSms[] = [];
      const sink: ReplySink = async (replies) => void received.push(...replies);
      let run = new AbortController();
      let watching = watch(driver({ webhook }), sink, run.signal);
      await eventually(() => expect(phone.webhooks.size).toBe(4));

      const viaWebhook = await phone.receiveSms('+381600000002', 'yes please');
      await phone.receiveSms('+381600000003', 'stop', { webhook: false });
      await eventually(() => expect(received.map((reply) => reply.message).sort()).toEqual(['stop', 'yes please']));
      const pulls = phone.callsTo('GET', '/inbox').length;
      await eventually(() => expect(phone.callsTo('GET', '/inbox').length).toBeGreaterThan(pulls + 3));

      expect(received).toHaveLength(2);
      expect(received).toContainEqual({ from: '+381600000002', message: 'yes please', receivedAt: viaWebhook.createdAt.toISOString(), externalId: `smsgate:${(viaWebhook.hash >>> 0).toString(16)}` });
      run.abort();
      await watching;

      run = new AbortController();
      watching = watch(driver({ webhook }), sink, run.signal);
      const pullsAfterRestart = phone.callsTo('GET', '/inbox').length;
      await eventually(() => expect(phone.callsTo('GET', '/inbox').length).toBeGreaterThan(pullsAfterRestart + 3));
      expect(received).toHaveLength(2);
      await phone.receiveSms('+381600000004', 'one more', { webhook: false });
      await eventually(() => expect(received.map((reply) => reply.message)).toContain('one more'));
      expect(received).toHaveLength(3);
      expect(statSync(join(stateDir, 'smsgate-replies.json')).mode & 0o777).toBe(0o600);
      run.abort();
      await watching;
    });

    it.each(['webhook', 'inbox'] as const)('offers a reply from the %s again after the sink rejected it, until the sink takes it', async (path) => {
      // An app without GET /inbox, so the webhook is the only way in.
      if (path === 'webhook') await usePhone({ app: 'before-1.39' });
      const webhook = path === 'webhook' ? await webhookOptions() : undefined;
      const received: ReceivedSms[] = [];
      let offers = 0;
      const sink: ReplySink = async (replies) => {
        offers++;
        if (offers === 1) throw new Error('smsq unreachable');
        received.push(...replies);
      };
      void watch(driver({ gatewayUrl: phone.url, webhook }), sink);
      if (webhook !== undefined) await eventually(() => expect(phone.webhooks.size).toBe(4));

      const reply = await phone.receiveSms('+381600000005', 'maybe', { webhook: path === 'webhook' });
      await eventually(() => expect(received).toHaveLength(1));
      const pulls = phone.callsTo('GET', '/inbox').length;
      if (path === 'inbox') await eventually(() => expect(phone.callsTo('GET', '/inbox').length).toBeGreaterThan(pulls + 3));

      expect(received[0]).toMatchObject({ from: '+381600000005', message: 'maybe' });
      expect(offers).toBe(2);
      const state = JSON.parse(readFileSync(join(stateDir, 'smsgate-replies.json'), 'utf8'));
      expect(state.pending).toEqual([]);
      expect(Object.keys(state.seen)).toEqual([`smsgate:${(reply.hash >>> 0).toString(16)}`]);
    });

    it('relies on webhooks alone, saying so once, when the app has no GET /inbox', async () => {
      await usePhone({ app: 'before-1.39' });
      const webhook = await webhookOptions();
      const received: ReceivedSms[] = [];
      void watch(driver({ gatewayUrl: phone.url, webhook }), async (replies) => void received.push(...replies));
      await eventually(() => expect(phone.webhooks.size).toBe(4));

      await phone.receiveSms('+381600000006', 'old phone, new reply');
      await eventually(() => expect(received.map((reply) => reply.message)).toEqual(['old phone, new reply']));
      expect(phone.callsTo('GET', '/inbox')).toHaveLength(1);
      expect(logger.lines.filter((line) => line.includes('has no GET /inbox'))).toHaveLength(1);
    });

    it('pulls the inbox when the app refuses a LAN http webhook URL, and says why', async () => {
      const webhook = await webhookOptions('192.168.1.5');
      const received: ReceivedSms[] = [];
      void watch(driver({ webhook }), async (replies) => void received.push(...replies));

      await logger.waitForLine(/smsgate refused the webhook URL/);
      await phone.receiveSms('+381600000007', 'via the inbox', { webhook: false });
      await eventually(() => expect(received.map((reply) => reply.message)).toEqual(['via the inbox']));
      expect(phone.webhooks.size).toBe(0);
    });

    it('takes webhooks signed with the key and refuses a wrong, missing or stale signature with 401', async () => {
      await usePhone({ signingKey: 'app-signing-key' });
      const webhook = await webhookOptions('127.0.0.1', 'app-signing-key');
      const received: ReceivedSms[] = [];
      void watch(driver({ gatewayUrl: phone.url, webhook }), async (replies) => void received.push(...replies));
      await eventually(() => expect(phone.webhooks.size).toBe(4));
      const payload = (messageId: string) => ({ messageId, message: `reply ${messageId}`, sender: '+381600000008', receivedAt: new Date().toISOString() });

      expect(await phone.emit('sms:received', payload('a1'))).toEqual([200]);
      expect(await phone.emit('sms:received', payload('b2'), { signature: 'f'.repeat(64) })).toEqual([401]);
      expect(await phone.emit('sms:received', payload('c3'), { key: 'another-key' })).toEqual([401]);
      expect(await phone.emit('sms:received', payload('d4'), { timestamp: Math.floor(Date.now() / 1000) - 301 })).toEqual([401]);
      const unsigned = await fetch(`${webhook.publicUrl}/smsgate/events`, { method: 'POST', body: JSON.stringify({ event: 'sms:received', payload: payload('e5') }) });
      expect(unsigned.status).toBe(401);

      await eventually(() => expect(received.map((reply) => reply.externalId)).toEqual(['smsgate:a1']));
      expect(logger.lines.filter((line) => line.includes('smsgate webhook refused'))).toHaveLength(4);
    });
  });

  describe('health', () => {
    it('reads battery, charging and connection from the app\'s health checks, also from its 500 when a check fails', async () => {
      const check = (observedValue: number) => ({ status: 'pass', observedValue, observedUnit: 'flags', description: '' });
      phone.health = { status: 200, body: { status: 'pass', version: '1.68.0', releaseId: 68, checks: { 'battery:level': check(76), 'battery:charging': check(5), 'connection:status': check(1), 'connection:transport': check(4) } } };
      await expect(sut.health(stopping.signal)).resolves.toEqual({ batteryPercent: 76, charging: true, connection: 'WIFI' });

      phone.health = { status: 500, body: { status: 'fail', version: '1.68.0', releaseId: 68, checks: { 'battery:level': check(8), 'battery:charging': check(0), 'connection:transport': check(6) } } };
      await expect(sut.health(stopping.signal)).resolves.toEqual({ batteryPercent: 8, charging: false, connection: 'WIFI+CELLULAR' });
    });

    it('is undefined when the phone cannot be reached or no gateway URL is known', async () => {
      phone.down = true;
      await expect(sut.health(stopping.signal)).resolves.toBeUndefined();
      await expect(driver({ gatewayUrl: undefined }).health(stopping.signal)).resolves.toBeUndefined();
    });
  });
});
