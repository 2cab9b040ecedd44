import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { TaskCreationService } from './task-creation.service.js';

describe(`${TaskCreationService.name} and task lookup on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let phoneId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    phoneId = (await dispatch.phones.register({ clientId: 1, name: 'pixel', phoneLimit: 2 })).phone.id;
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  it('stores the task once for concurrent deliveries of one create, charged once', async () => {
    const command = taskCreateCommand({ clientId: 1 });
    const balanceBefore = dispatch.billing.balance(1);

    const answers = await Promise.all(Array.from({ length: 5 }, () => dispatch.creation.create(command)));

    expect(new Set(answers.map(({ task }) => task.id)).size).toBe(1);
    expect(await dispatch.db.task.count({ where: { taskKey: command.taskKey } })).toBe(1);
    expect(dispatch.billing.balance(1)).toBe(balanceBefore - 1);
  });

  it('shows a client its task as stored, with the local scheduled time', async () => {
    const command = taskCreateCommand({ clientId: 1, scheduledAt: '2026-12-31T22:30:00.000Z', scheduledLocal: '2026-12-31 23:30:00' });
    const { task } = await dispatch.creation.create(command);

    await expect(dispatch.lookup.get({ clientId: 1, id: task.id })).resolves.toEqual({
      ...task,
      phoneId,
      status: 'pending',
      scheduledAt: '2026-12-31 23:30:00',
      attempts: 0,
      sentAt: null,
      failedAt: null,
      error: null,
    });
    const stored = await dispatch.db.task.findUniqueOrThrow({ where: { id: task.id } });
    expect(stored.scheduledAt.toISOString()).toBe('2026-12-31T22:30:00.000Z');
  });

  it('does not show a task to another client, nor an unknown or unstorable id', async () => {
    const { task } = await dispatch.creation.create(taskCreateCommand({ clientId: 1 }));

    await expect(dispatch.lookup.get({ clientId: 2, id: task.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.lookup.get({ clientId: 1, id: task.id + 1000 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.lookup.get({ clientId: 1, id: 2 ** 40 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a create after its phone was disabled, with no task and no debit', async () => {
    const { phone } = await dispatch.phones.register({ clientId: 3, name: 'only', phoneLimit: 1 });
    await dispatch.phones.setActive({ phoneId: phone.id, kind: 'own', active: false });
    const debitsBefore = dispatch.billing.debitCalls.length;

    await expect(dispatch.creation.create(taskCreateCommand({ clientId: 3 }))).rejects.toMatchObject({ code: 'no_active_phone' });
    expect(dispatch.billing.debitCalls).toHaveLength(debitsBefore);
    expect(await dispatch.db.task.count({ where: { clientId: 3 } })).toBe(0);
  });
});
