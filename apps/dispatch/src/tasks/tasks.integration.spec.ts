import { eventually, type TestDatabase } from '@smsq/testing';
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

  it('answers each create of a batch in its place, as alone: new, repeat, the same key twice, no phone', async () => {
    const stored = await dispatch.creation.create(taskCreateCommand({ clientId: 1 }));
    const storedKey = (await dispatch.db.task.findUniqueOrThrow({ where: { id: stored.task.id } })).taskKey;
    const fresh = taskCreateCommand({ clientId: 1 });
    const balanceBefore = dispatch.billing.balance(1);

    const outcomes = await dispatch.creation.createMany([
      fresh,
      taskCreateCommand({ clientId: 1, taskKey: storedKey }),
      fresh,
      taskCreateCommand({ clientId: 4 }),
    ]);

    expect(outcomes.map((outcome) => (outcome.ok ? outcome.value.task.id : outcome.error.error))).toEqual([
      expect.any(Number),
      stored.task.id,
      outcomes[0]!.ok && outcomes[0]!.value.task.id,
      'no_active_phone',
    ]);
    expect(await dispatch.db.task.count({ where: { taskKey: fresh.taskKey } })).toBe(1);
    expect(dispatch.billing.balance(1)).toBe(balanceBefore - 1);
  });

  it('refunds only the create of a batch whose key was voided while billing debited, storing the others', async () => {
    const [voided, kept] = [taskCreateCommand({ clientId: 1 }), taskCreateCommand({ clientId: 1 })];
    dispatch.billing.duringDebit = async () => {
      await dispatch.db.voidedTaskKey.createMany({ data: [{ taskKey: voided.taskKey }], skipDuplicates: true });
    };
    try {
      const outcomes = await dispatch.creation.createMany([voided, kept]);

      expect(outcomes.map((outcome) => (outcome.ok ? 'created' : outcome.error.error))).toEqual(['unavailable', 'created']);
    } finally {
      dispatch.billing.duringDebit = () => undefined;
    }
    expect(await dispatch.db.task.count({ where: { taskKey: { in: [voided.taskKey, kept.taskKey] } } })).toBe(1);
    await eventually(() => expect(dispatch.billing.refundedKeys()).toContain(voided.taskKey));
    expect(dispatch.billing.refundedKeys()).not.toContain(kept.taskKey);
  });
});
