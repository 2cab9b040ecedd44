import { randomUUID } from 'node:crypto';
import type { TaskResendCommand } from '@smsq/contracts';
import { SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatus } from '../generated/prisma/client.js';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { TaskResendService } from './task-resend.service.js';

describe(`${TaskResendService.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    await dispatch.phones.register({ clientId: 1, name: 'one', phoneLimit: 2 });
    await dispatch.phones.register({ clientId: 2, name: 'two', phoneLimit: 2 });
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  /** A task of the client, created through the real flow, then put in `status`. */
  async function taskOf(clientId: number, status: TaskStatus): Promise<number> {
    const { task } = await dispatch.creation.create(
      taskCreateCommand({ clientId, recipient: '+381641234567', message: 'Твој код је 4711', scheduledAt: '2026-12-31T22:30:00.000Z', scheduledLocal: '2026-12-31 23:30:00' }),
    );
    const final = status === 'failed' ? { failedAt: new Date(), error: 'no signal' } : status === 'sent' ? { sentAt: new Date() } : {};
    await dispatch.db.task.update({ where: { id: task.id }, data: { status, ...final } });
    return task.id;
  }

  function resendCommand(clientId: number, id: number): TaskResendCommand {
    return { clientId, id, taskKey: randomUUID(), deadline: new Date(Date.now() + 30_000).toISOString() };
  }

  it('queues a failed task again as a new task, due now, with one new debit', async () => {
    const failedId = await taskOf(1, 'failed');
    const balanceBefore = dispatch.billing.balance(1);
    const command = resendCommand(1, failedId);
    const before = Date.now();

    const { task, creditsRemaining } = await dispatch.resend.resend(command);

    expect(task.id).not.toBe(failedId);
    expect(task).toMatchObject({ clientId: 1, recipient: '+381641234567', message: 'Твој код је 4711', status: 'pending', attempts: 0 });
    expect(dispatch.billing.balance(1)).toBe(balanceBefore - 1);
    expect(creditsRemaining).toBe(balanceBefore - 1);
    expect(dispatch.billing.debitedKeys()).toContain(command.taskKey);
    const stored = await dispatch.db.task.findUniqueOrThrow({ where: { id: task.id } });
    expect(stored.taskKey).toBe(command.taskKey);
    expect(stored.scheduledAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(stored.scheduledAt.getTime()).toBeLessThanOrEqual(Date.now());
    // The original was answered at +01:00, so "now" is labelled in that offset too.
    const localOfNow = new Date(stored.scheduledAt.getTime() + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(task.scheduledAt).toBe(localOfNow);
    // The original stays as it was: failed, and refunded by its own path.
    await expect(dispatch.lookup.get({ clientId: 1, id: failedId })).resolves.toMatchObject({ status: 'failed' });
  });

  it('queues a failed encrypted task again sealed, its parts unknown again, never as plain text', async () => {
    const sealed = SEALED_MESSAGE_TEST_VECTORS[0]!.sealed;
    const { task: original } = await dispatch.creation.create(taskCreateCommand({ clientId: 1, recipient: '+381641234567', message: sealed, encrypted: true }));
    await dispatch.db.task.update({ where: { id: original.id }, data: { status: 'failed', failedAt: new Date(), error: 'cannot decrypt: the passphrase is wrong or the message was altered' } });

    const { task } = await dispatch.resend.resend(resendCommand(1, original.id));

    expect(task).toMatchObject({ message: sealed, encrypted: true, segments: null, status: 'pending' });
    expect(await dispatch.db.task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({ encrypted: true, partsKnown: false, parts: 1 });
  });

  it('answers a repeat of the same resend with the same task, charging nothing more', async () => {
    const command = resendCommand(1, await taskOf(1, 'failed'));
    const first = await dispatch.resend.resend(command);
    const balanceAfterFirst = dispatch.billing.balance(1);

    const again = await dispatch.resend.resend(command);

    expect(again.task.id).toBe(first.task.id);
    expect(dispatch.billing.balance(1)).toBe(balanceAfterFirst);
    expect(await dispatch.db.task.count({ where: { taskKey: command.taskKey } })).toBe(1);
  });

  it.each(['pending', 'claimed', 'sent'] as const)('refuses to resend a %s task, with no task and no debit', async (status) => {
    const id = await taskOf(1, status);
    const debitsBefore = dispatch.billing.debitCalls.length;
    const tasksBefore = await dispatch.db.task.count();

    await expect(dispatch.resend.resend(resendCommand(1, id))).rejects.toMatchObject({ code: 'conflict' });

    expect(dispatch.billing.debitCalls).toHaveLength(debitsBefore);
    expect(await dispatch.db.task.count()).toBe(tasksBefore);
  });

  it('does not let a client resend another client’s failed task, nor an unknown one', async () => {
    const ofClient1 = await taskOf(1, 'failed');
    const debitsBefore = dispatch.billing.debitCalls.length;
    const tasksBefore = await dispatch.db.task.count();

    await expect(dispatch.resend.resend(resendCommand(2, ofClient1))).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.resend.resend(resendCommand(1, ofClient1 + 1000))).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.resend.resend(resendCommand(1, 2 ** 40))).rejects.toMatchObject({ code: 'not_found' });

    expect(dispatch.billing.debitCalls).toHaveLength(debitsBefore);
    expect(await dispatch.db.task.count()).toBe(tasksBefore);
    expect(await dispatch.db.task.count({ where: { clientId: 2, message: 'Твој код је 4711', status: 'pending' } })).toBe(0);
  });

  it('keeps the create rules: a resend past its deadline does nothing', async () => {
    const command = { ...resendCommand(1, await taskOf(1, 'failed')), deadline: new Date(Date.now() - 1).toISOString() };
    const debitsBefore = dispatch.billing.debitCalls.length;

    await expect(dispatch.resend.resend(command)).rejects.toMatchObject({ code: 'unavailable' });
    expect(dispatch.billing.debitCalls).toHaveLength(debitsBefore);
    expect(await dispatch.db.task.count({ where: { taskKey: command.taskKey } })).toBe(0);
  });

  it('refuses a resend when the client has no active phone left, before any debit', async () => {
    const { phone } = await dispatch.phones.register({ clientId: 3, name: 'three', phoneLimit: 1 });
    const failedId = await taskOf(3, 'failed');
    await dispatch.phones.setActive({ phoneId: phone.id, kind: 'own', active: false, clientId: 3 });
    const debitsBefore = dispatch.billing.debitCalls.length;

    await expect(dispatch.resend.resend(resendCommand(3, failedId))).rejects.toMatchObject({ code: 'no_active_phone' });
    expect(dispatch.billing.debitCalls).toHaveLength(debitsBefore);
  });
});
