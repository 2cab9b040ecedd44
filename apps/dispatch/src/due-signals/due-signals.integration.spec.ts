import { dueSignalChannel } from '@smsq/contracts';
import { eventually, type TestDatabase } from '@smsq/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { insertTask, truncateDispatch } from '../testing/task-rows.js';
import { DueSignals } from './due-signals.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe(`${DueSignals.name} on Redis`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let listener: Redis;
  let marker: Redis;
  let heard: string[];
  let phoneId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A', { claimTimeoutS: 1 });
    // A plain connection, as the gateway's: the channel name carries the namespace, no key prefix applies.
    listener = new Redis(REDIS_URL);
    marker = new Redis(REDIS_URL);
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.subscribe(dueSignalChannel(dispatch.config.namespace));
  });

  afterAll(async () => {
    await listener?.quit();
    await marker?.quit();
    await dispatch?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
    phoneId = (await dispatch.phones.register({ clientId: 1, name: 'pixel', phoneLimit: 5 })).phone.id;
    heard = [];
  });

  /** Everything published so far has arrived once a marker sent after it has. */
  async function heardSoFar(): Promise<string[]> {
    const last = `marker-${Math.random()}`;
    await marker.publish(dueSignalChannel(dispatch.config.namespace), last);
    await eventually(() => expect(heard).toContain(last));
    return heard.filter((message) => message !== last);
  }

  it('announces the phone when a task due now is created, and not for one due much later', async () => {
    await dispatch.creation.create(taskCreateCommand({ clientId: 1, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }));
    await dispatch.creation.create(taskCreateCommand({ clientId: 1, scheduledAt: new Date(Date.now() - 1_000).toISOString() }));

    await eventually(() => expect(heard).toEqual([String(phoneId)]));
    expect(await heardSoFar()).toEqual([String(phoneId)]);
  });

  it('announces the phone when a released claim is due again', async () => {
    const task = await insertTask(dispatch.db, { phoneId });
    await dispatch.claims.claim({ tokenId: 1, phoneId });

    await dispatch.claims.release({ tokenId: 1, id: task.id });

    await eventually(() => expect(heard).toEqual([String(phoneId)]));
  });

  it('announces the phone when a batch report gives a claim back, and not when there was nothing to give back', async () => {
    const task = await insertTask(dispatch.db, { phoneId });
    await dispatch.claims.claim({ tokenId: 1, phoneId });

    await dispatch.reports.reportMany({ tokenId: 2, reports: [{ id: task.id, status: 'released' }] });
    expect(await heardSoFar()).toEqual([]);
    heard = [];
    await dispatch.reports.reportMany({ tokenId: 1, reports: [{ id: task.id, status: 'released' }] });

    await eventually(() => expect(heard).toEqual([String(phoneId)]));
  });

  it('announces the phone when an expired claim returns its task to pending', async () => {
    await insertTask(dispatch.db, { phoneId });
    await dispatch.claims.claim({ tokenId: 1, phoneId });

    await eventually(
      async () => {
        await dispatch.leases.sweepOnce();
        expect(heard).toEqual([String(phoneId)]);
      },
      { timeoutMs: 10_000 },
    );
  });

  it('announces a phone enabled with due tasks waiting, and not one with none', async () => {
    const idle = (await dispatch.phones.register({ clientId: 1, name: 'idle', phoneLimit: 5 })).phone.id;
    await insertTask(dispatch.db, { phoneId });
    // The idle phone first: a phone disabled while another is usable would hand its waiting task over.
    for (const id of [idle, phoneId]) await dispatch.phones.setActive({ phoneId: id, kind: 'own', active: false });

    await dispatch.phones.setActive({ phoneId: idle, kind: 'own', active: true });
    await dispatch.phones.setActive({ phoneId, kind: 'own', active: true });

    expect(await heardSoFar()).toEqual([String(phoneId)]);
  });
});
