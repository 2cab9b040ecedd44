import { Patterns, type SmppTaskEndedCommand } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';

const CLIENT = 8;
const WORKER = 41;

/** Tasks submitted over SMPP with a receipt asked for: each of their ends goes to the SMPP service through the outbox, and no other task's. */
describe('task ends relayed to the SMPP service, on Postgres', () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let phoneId: number;

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
  });

  async function claimedTask(receipts: boolean): Promise<number> {
    const { task } = await dispatch.creation.create({ ...taskCreateCommand({ clientId: CLIENT, scheduledAt: new Date(Date.now() - 60_000).toISOString() }), ...(receipts ? { receipts } : {}) });
    expect(await dispatch.claims.claim({ tokenId: WORKER, phoneId })).toMatchObject({ claimed: true, task: { id: task.id } });
    return task.id;
  }

  const relayed = async (): Promise<SmppTaskEndedCommand[]> => {
    const sent: SmppTaskEndedCommand[] = [];
    await dispatch.newRelay(undefined, { send: async (pattern, payload) => void (pattern === Patterns.smpp.taskEnded && sent.push(payload as SmppTaskEndedCommand)) }).relayOnce();
    return sent;
  };

  it('relays sent then delivered for a task that asked, once each however often it is reported', async () => {
    const id = await claimedTask(true);
    await dispatch.reports.report({ tokenId: WORKER, id, status: 'sent' });
    await dispatch.reports.report({ tokenId: WORKER, id, status: 'sent' });
    await dispatch.reports.report({ tokenId: WORKER, id, status: 'delivered' });

    const sent = await relayed();
    expect(sent.map(({ taskId, clientId, event }) => ({ taskId, clientId, event }))).toEqual([
      { taskId: id, clientId: CLIENT, event: 'task.sent' },
      { taskId: id, clientId: CLIENT, event: 'task.delivered' },
    ]);
    expect(Date.parse(sent[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await relayed()).toEqual([]);
  });

  it('relays a failure and a cancel; a task that did not ask relays nothing', async () => {
    const failed = await claimedTask(true);
    await dispatch.reports.report({ tokenId: WORKER, id: failed, status: 'failed', error: 'no signal' });
    const plain = await claimedTask(false);
    await dispatch.reports.report({ tokenId: WORKER, id: plain, status: 'sent' });
    const { task: waiting } = await dispatch.creation.create({ ...taskCreateCommand({ clientId: CLIENT }), receipts: true });
    await dispatch.cancel.cancel({ clientId: CLIENT, id: waiting.id });

    expect((await relayed()).map(({ taskId, event }) => ({ taskId, event }))).toEqual([
      { taskId: failed, event: 'task.failed' },
      { taskId: waiting.id, event: 'task.cancelled' },
    ]);
  });

  it('keeps the message while the SMPP service is away, and relays it when it is back', async () => {
    const id = await claimedTask(true);
    await dispatch.reports.report({ tokenId: WORKER, id, status: 'delivered' });
    const away = await dispatch.newRelay().relayOnce();
    expect(away.delivered).toBe(0);
    expect(away.failed).toBeGreaterThan(0);
    await dispatch.db.$executeRaw`UPDATE "dispatch"."outbox_messages" SET next_attempt_at = now()`;
    // One report made both: their order within the statement is not fixed (the SMPP service orders them).
    expect((await relayed()).map(({ event }) => event).sort()).toEqual(['task.delivered', 'task.sent']);
  });
});
