import { NotFoundError } from '@smsq/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryStore } from '../testing/in-memory-store.js';
import { InMemoryTasksRepository } from '../testing/in-memory-tasks.repository.js';
import { standIn } from '../testing/stand-in.js';
import { TaskLookupService } from './task-lookup.service.js';

describe(TaskLookupService.name, () => {
  let store: InMemoryStore;
  let sut: TaskLookupService;
  let taskId: number;

  beforeEach(() => {
    store = new InMemoryStore();
    sut = new TaskLookupService(standIn(new InMemoryTasksRepository(store)));
    const phone = store.addPhone({ kind: 'own', clientId: 1 });
    taskId = store.addTask({
      taskKey: '0b0e6a0e-5f55-4a53-8d43-1f1d1e7f9a01',
      clientId: 1,
      phoneId: phone.id,
      recipient: '+38160111222',
      message: 'hi',
      scheduledAt: new Date('2026-03-01T09:00:00Z'),
      scheduledLocal: '2026-03-01 10:00:00',
    }).id;
  });

  it('shows the client its own task with the local scheduled time', async () => {
    await expect(sut.get({ clientId: 1, id: taskId })).resolves.toMatchObject({ id: taskId, status: 'pending', scheduledAt: '2026-03-01 10:00:00', sentAt: null, deliveredAt: null });
  });

  it('shows when the delivery report came, and how many SMS the message costs', async () => {
    const task = store.tasks.find((candidate) => candidate.id === taskId)!;
    Object.assign(task, { status: 'sent', sentAt: new Date('2026-03-01T09:00:05Z'), deliveredAt: new Date('2026-03-01T09:00:09Z'), message: 'x'.repeat(400) });

    await expect(sut.get({ clientId: 1, id: taskId })).resolves.toMatchObject({
      status: 'sent',
      sentAt: '2026-03-01T09:00:05.000Z',
      deliveredAt: '2026-03-01T09:00:09.000Z',
      segments: 3,
    });
    task.message = 'Привет';
    await expect(sut.get({ clientId: 1, id: taskId })).resolves.toMatchObject({ segments: 1 });
  });

  it.each([
    ['another client’s task', () => ({ clientId: 2, id: taskId })],
    ['an unknown id', () => ({ clientId: 1, id: taskId + 1 })],
    ['an id beyond any stored one', () => ({ clientId: 1, id: 2 ** 33 })],
  ])('does not find %s', async (_label, query) => {
    await expect(sut.get(query())).rejects.toBeInstanceOf(NotFoundError);
  });
});
