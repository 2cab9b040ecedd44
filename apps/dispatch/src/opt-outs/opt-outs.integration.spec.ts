import { OPTED_OUT_ERROR, Patterns, type OptOutSettingsUpdate, type ReplyReceivedCommand } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { OptOutsService } from './opt-outs.service.js';

const CLIENT = 4;
const OTHER_CLIENT = 9;
const NUMBER = '+381641112223';

describe(`${OptOutsService.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let phoneId: number;
  let messageId = 0;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
    phoneId = (await dispatch.phones.register({ clientId: CLIENT, name: 'pixel', phoneLimit: 2 })).phone.id;
    await dispatch.phones.register({ clientId: OTHER_CLIENT, name: 'other', phoneLimit: 2 });
    await dispatch.webhooks.create({ clientId: CLIENT, url: 'http://127.0.0.1:9/events', events: ['recipient.opted_out', 'recipient.opted_in', 'task.cancelled'] });
  });

  /** A reply as inbox relays it, received `secondsAgo` before now. */
  const reply = (message: string, secondsAgo = 0, from = NUMBER): ReplyReceivedCommand => {
    const at = new Date(Date.now() - secondsAgo * 1000).toISOString();
    return { eventId: randomUUID(), clientId: CLIENT, phoneId, messageId: ++messageId, from, message, receivedAt: at, storedAt: at };
  };
  const queue = async (clientId = CLIENT, recipient = NUMBER) => dispatch.creation.createMany([taskCreateCommand({ clientId, recipient })]).then(([outcome]) => outcome!);
  const refunds = async () => (await dispatch.db.outboxMessage.findMany({ orderBy: { id: 'asc' } })).filter((row) => row.pattern === Patterns.billing.refund).map((row) => row.payload);
  const events = async () => (await dispatch.db.webhookDelivery.findMany({ orderBy: { id: 'asc' } })).map((row) => ({ type: row.type, data: row.body ? JSON.parse(row.body).data : { taskId: row.taskId } }));
  const listed = async (clientId = CLIENT) => (await dispatch.optOuts.list({ clientId, limit: 100 })).items.map((item) => item.number);

  it('puts the sender of STOP on the list, refuses its next create before any debit, and cancels and refunds what was queued, once', async () => {
    const queued = await queue();
    const debitsBefore = dispatch.billing.debitCalls.length;
    expect(queued.ok).toBe(true);
    const stop = reply(' Stop! ');

    await dispatch.optOuts.fromReply(stop);
    // Inbox relays at least once: the repeat changes nothing.
    await dispatch.optOuts.fromReply(stop);

    expect(await listed()).toEqual([NUMBER]);
    const task = await dispatch.db.task.findFirstOrThrow({ where: { recipient: NUMBER, clientId: CLIENT } });
    expect(task).toMatchObject({ status: 'failed', error: OPTED_OUT_ERROR });
    expect(await refunds()).toEqual([{ taskKey: task.taskKey, reason: 'task_cancelled' }]);
    const told = await events();
    expect(told).toHaveLength(2);
    expect(told).toEqual(
      expect.arrayContaining([
        { type: 'task.cancelled', data: { taskId: task.id } },
        { type: 'recipient.opted_out', data: { number: NUMBER, source: 'reply', message_id: stop.messageId } },
      ]),
    );

    expect(await queue()).toMatchObject({ ok: false, error: { error: 'recipient_opted_out' } });
    expect(dispatch.billing.debitCalls.length).toBe(debitsBefore);
    // Another client's list is its own.
    expect(await queue(OTHER_CLIENT)).toMatchObject({ ok: true });
  });

  it('lets a START through, and keeps to the order the replies came in, not the order they are relayed in', async () => {
    const stop = reply('STOP', 20);
    const start = reply('start', 10);
    await dispatch.optOuts.fromReply(stop);
    await dispatch.optOuts.fromReply(start);
    expect(await listed()).toEqual([]);
    expect(await queue()).toMatchObject({ ok: true });

    // A STOP older than the START, relayed late, does not put the number back.
    await dispatch.optOuts.fromReply(reply('QUIT', 15));
    expect(await listed()).toEqual([]);
    // A new STOP does.
    await dispatch.optOuts.fromReply(reply('end'));
    expect(await listed()).toEqual([NUMBER]);
    expect((await events()).filter((event) => event.type.startsWith('recipient.')).map((event) => event.type)).toEqual(['recipient.opted_out', 'recipient.opted_in', 'recipient.opted_out']);
  });

  it("takes the client's own words, leaves queued tasks alone when the client said so, and ignores text that only contains a keyword", async () => {
    await dispatch.optOuts.updateSettings({ clientId: CLIENT, optOutWords: ['odjava', 'стоп'], optInWords: ['Prijava'], cancelQueued: false });
    expect(await dispatch.optOuts.settings(CLIENT)).toEqual({ optOutWords: ['ODJAVA', 'СТОП'], optInWords: ['PRIJAVA'], cancelQueued: false });
    const queued = await queue();

    await dispatch.optOuts.fromReply(reply('please stop sending these'));
    expect(await listed()).toEqual([]);
    await dispatch.optOuts.fromReply(reply('Стоп', 5));
    expect(await listed()).toEqual([NUMBER]);
    expect(await dispatch.db.task.findUniqueOrThrow({ where: { id: queued.ok ? queued.value.task.id : 0 } })).toMatchObject({ status: 'pending' });
    expect(await refunds()).toEqual([]);
    await dispatch.optOuts.fromReply(reply('prijava'));
    expect(await listed()).toEqual([]);

    await expect(dispatch.optOuts.updateSettings({ clientId: CLIENT, optOutWords: ['no more'] })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(dispatch.optOuts.updateSettings({ clientId: CLIENT, optInWords: ['ODJAVA'] })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('refuses own words that would both opt out and opt in, the standard words counted, and keeps the settings it had', async () => {
    await dispatch.optOuts.updateSettings({ clientId: CLIENT, optOutWords: ['odjava'], optInWords: ['prijava'] });
    const refusals: [Pick<OptOutSettingsUpdate, 'optOutWords' | 'optInWords'>, string][] = [
      [{ optOutWords: ['START'] }, 'START'],
      [{ optOutWords: ['odjava', 'unstop'] }, 'UNSTOP'],
      [{ optInWords: ['Stop'] }, 'STOP'],
      [{ optInWords: ['quit!'] }, 'QUIT'],
      [{ optOutWords: ['kraj'], optInWords: ['Kraj'] }, 'KRAJ'],
      [{ optInWords: ['odjava'] }, 'ODJAVA'],
    ];
    for (const [words, named] of refusals) {
      await expect(dispatch.optOuts.updateSettings({ clientId: CLIENT, ...words }), named).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining(named) });
    }
    expect(await dispatch.optOuts.settings(CLIENT)).toEqual({ optOutWords: ['ODJAVA'], optInWords: ['PRIJAVA'], cancelQueued: true });

    // A number that replied STOP and then START is off the list, and a fresh START puts nobody on it.
    await dispatch.optOuts.fromReply(reply('STOP', 20));
    await dispatch.optOuts.fromReply(reply('START', 10));
    await dispatch.optOuts.fromReply(reply('start', 5, '+381641112224'));
    expect(await listed()).toEqual([]);
  });

  it('reads START and STOP as the standard words say, whatever own words were saved before they were refused', async () => {
    await dispatch.db.optOutSetting.create({ data: { clientId: CLIENT, optOutWords: ['START'], optInWords: ['STOP'], cancelQueued: true } });
    await dispatch.optOuts.fromReply(reply('STOP', 20));
    expect(await listed()).toEqual([NUMBER]);
    await dispatch.optOuts.fromReply(reply('Start', 10));
    await dispatch.optOuts.fromReply(reply('START', 5, '+381641112224'));
    expect(await listed()).toEqual([]);
    // Changing only cancel_queued still works; the words are refused once they are given again.
    expect(await dispatch.optOuts.updateSettings({ clientId: CLIENT, cancelQueued: false })).toMatchObject({ cancelQueued: false });
    await expect(dispatch.optOuts.updateSettings({ clientId: CLIENT, optInWords: [] })).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('START') });
  });

  it('adds and removes numbers for the client, pages the list newest first, and answers not_found for a number not on it', async () => {
    const queued = await queue(CLIENT, '+381641112230');
    expect(await dispatch.optOuts.add({ clientId: CLIENT, numbers: ['+381641112230', '+381641112231', '+381641112231'], source: 'api' })).toEqual({ added: 2, cancelled: 1 });
    expect(await dispatch.optOuts.add({ clientId: CLIENT, numbers: ['+381641112231', '+381641112232'], source: 'dashboard' })).toEqual({ added: 1, cancelled: 0 });
    expect(queued.ok && (await dispatch.db.task.findUniqueOrThrow({ where: { id: queued.value.task.id } })).error).toBe(OPTED_OUT_ERROR);

    const first = await dispatch.optOuts.list({ clientId: CLIENT, limit: 2 });
    expect(first.items.map((item) => item.number)).toEqual(['+381641112232', expect.any(String)]);
    expect(first.items[0]).toMatchObject({ source: 'dashboard', optedOutAt: expect.any(String) });
    const second = await dispatch.optOuts.list({ clientId: CLIENT, limit: 2, cursor: first.nextCursor! });
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((item) => item.number).sort()).toEqual(['+381641112230', '+381641112231', '+381641112232']);
    expect((await dispatch.optOuts.list({ clientId: CLIENT, limit: 10, search: '2231' })).items.map((item) => item.number)).toEqual(['+381641112231']);
    // A number is found by its national form too, as it is written at home, and by its digits after the country code.
    for (const search of ['0641112231', '641112231', '00381641112231', '+381641112231']) {
      expect((await dispatch.optOuts.list({ clientId: CLIENT, limit: 10, search })).items.map((item) => item.number), search).toEqual(['+381641112231']);
    }
    expect((await dispatch.optOuts.list({ clientId: CLIENT, limit: 10, search: '+641112231' })).items).toEqual([]);
    expect(await dispatch.optOuts.check({ clientId: CLIENT, numbers: ['+381641112231', '+381641112299'] })).toEqual(['+381641112231']);
    expect(await listed(OTHER_CLIENT)).toEqual([]);

    expect(await dispatch.optOuts.remove({ clientId: CLIENT, number: '+381641112231', source: 'api' })).toEqual({ ok: true });
    await expect(dispatch.optOuts.remove({ clientId: CLIENT, number: '+381641112231', source: 'api' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.optOuts.remove({ clientId: OTHER_CLIENT, number: '+381641112230', source: 'api' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.optOuts.list({ clientId: CLIENT, limit: 2, cursor: 'bm90IGEgY3Vyc29y' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('removes a number through the API even when its STOP came with a phone clock ahead of the server', async () => {
    await dispatch.optOuts.fromReply(reply('STOP', -3600));
    expect(await listed()).toEqual([NUMBER]);
    await dispatch.optOuts.remove({ clientId: CLIENT, number: NUMBER, source: 'dashboard' });
    expect(await listed()).toEqual([]);
    expect(await queue()).toMatchObject({ ok: true });
  });

  it('never leaves a task queued to a number that opted out, however creates and the opt-out race', async () => {
    const chargedBefore = new Set(dispatch.billing.debitedKeys());
    const creates = Array.from({ length: 30 }, () => queue());
    const optOut = dispatch.optOuts.fromReply(reply('STOP'));
    const outcomes = await Promise.all(creates);
    await optOut;

    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused.map((outcome) => !outcome.ok && outcome.error.error)).toEqual(refused.map(() => 'recipient_opted_out'));
    const tasks = await dispatch.db.task.findMany({ where: { clientId: CLIENT, recipient: NUMBER } });
    expect(tasks.filter((task) => task.status === 'pending')).toEqual([]);
    expect(tasks).toHaveLength(outcomes.filter((outcome) => outcome.ok).length);
    // Each task stored was cancelled with one refund; each refused create was never charged, or was refunded as not created.
    expect((await refunds()).filter((refund) => (refund as { reason: string }).reason === 'task_cancelled')).toHaveLength(tasks.length);
    const charged = dispatch.billing.debitedKeys().filter((key) => !chargedBefore.has(key));
    expect(charged.length).toBeGreaterThanOrEqual(tasks.length);
    const refundedNotCreated = new Set(dispatch.billing.refundCalls.filter((refund) => refund.reason === 'task_not_created').map((refund) => refund.taskKey));
    for (const key of charged) expect(tasks.some((task) => task.taskKey === key) || refundedNotCreated.has(key), key).toBe(true);
  });
});
