import { CANCELLED_ERROR, Patterns } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { TaskCancelService } from './task-cancel.service.js';

const CLIENT = 1;

describe(`${TaskCancelService.name} on Postgres`, () => {
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

  const refunds = async () =>
    (await dispatch.db.outboxMessage.findMany({ orderBy: { id: 'asc' } })).filter((row) => row.pattern === Patterns.billing.refund).map((row) => row.payload);
  const queue = async () => (await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT }))).task;

  it('fails a task no worker was handed with the error cancelled, and owes its refund once, however many cancels race', async () => {
    const task = await queue();
    const { taskKey } = await dispatch.db.task.findUniqueOrThrow({ where: { id: task.id } });

    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => dispatch.cancel.cancel({ clientId: CLIENT, id: task.id })));

    const cancelled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.value).toMatchObject({ id: task.id, status: 'failed', error: CANCELLED_ERROR, failedAt: expect.any(String) });
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome.reason as { code: string }).code)).toEqual([
      'conflict',
      'conflict',
      'conflict',
      'conflict',
    ]);
    expect(await refunds()).toEqual([{ taskKey, reason: 'task_cancelled' }]);
  });

  it('answers conflict for a claimed task and for one back in the queue after a claim, and leaves them as they are', async () => {
    const claimedTask = await queue();
    const claim = await dispatch.claims.claim({ tokenId: 7, phoneId });
    expect(claim).toMatchObject({ claimed: true, task: { id: claimedTask.id } });

    await expect(dispatch.cancel.cancel({ clientId: CLIENT, id: claimedTask.id })).rejects.toMatchObject({ code: 'conflict' });
    await dispatch.db.task.update({ where: { id: claimedTask.id }, data: { status: 'pending', claimedByTokenId: null, claimExpiresAt: null } });
    await expect(dispatch.cancel.cancel({ clientId: CLIENT, id: claimedTask.id })).rejects.toMatchObject({ code: 'conflict' });

    expect(await dispatch.db.task.findUniqueOrThrow({ where: { id: claimedTask.id } })).toMatchObject({ status: 'pending', error: null });
    expect(await refunds()).toEqual([]);
  });

  it('answers not_found for another client’s task, an unknown id and one that cannot be stored', async () => {
    const task = await queue();

    for (const [clientId, id] of [[2, task.id], [CLIENT, task.id + 1000], [CLIENT, 2 ** 40]] as const) {
      await expect(dispatch.cancel.cancel({ clientId, id })).rejects.toMatchObject({ code: 'not_found' });
    }
    expect(await dispatch.db.task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ status: 'pending' });
  });
});
