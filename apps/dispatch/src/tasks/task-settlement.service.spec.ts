import { beforeEach, describe, expect, it } from 'vitest';
import { FakeBillingClient } from '../testing/fake-billing.client.js';
import { InMemoryStore } from '../testing/in-memory-store.js';
import { InMemoryTasksRepository } from '../testing/in-memory-tasks.repository.js';
import { standIn } from '../testing/stand-in.js';
import { TaskSettlementService } from './task-settlement.service.js';

const KEY = '3f7c1a52-8d0e-4b7a-9c51-2e6f0d9b4a11';

describe(TaskSettlementService.name, () => {
  let store: InMemoryStore;
  let billing: FakeBillingClient;
  let sut: TaskSettlementService;

  beforeEach(() => {
    store = new InMemoryStore();
    billing = new FakeBillingClient(10);
    sut = new TaskSettlementService(standIn(new InMemoryTasksRepository(store)), standIn(billing));
  });

  function storeTask(status?: 'claimed') {
    const phone = store.addPhone({ kind: 'own', clientId: 1 });
    const task = store.addTask({ taskKey: KEY, clientId: 1, phoneId: phone.id, recipient: '+38160111222', message: 'm', scheduledAt: new Date(), scheduledLocal: '2026-01-01 10:00:00' });
    if (status) Object.assign(task, { status, attempts: 1 });
    return task;
  }

  describe('abandon', () => {
    it('fails and refunds a stored task nobody has touched, once however often it is asked', async () => {
      await billing.debit({ taskKey: KEY, clientId: 1, deadline: new Date(Date.now() + 60_000).toISOString() });
      const task = storeTask();
      await expect(sut.abandon(KEY)).resolves.toEqual({ outcome: 'voided' });
      await expect(sut.abandon(KEY)).resolves.toEqual({ outcome: 'voided' });
      expect(task.status).toBe('failed');
      expect(billing.refundedKeys()).toEqual([KEY]);
    });

    it('leaves a task that is already under way alone', async () => {
      const task = storeTask('claimed');
      await expect(sut.abandon(KEY)).resolves.toMatchObject({ outcome: 'created', task: { id: task.id } });
      expect(task.status).toBe('claimed');
      expect(billing.refundCalls).toEqual([]);
    });

    it('voids a key that has no task', async () => {
      await expect(sut.abandon(KEY)).resolves.toEqual({ outcome: 'voided' });
      expect([...store.voidedKeys]).toEqual([KEY]);
    });
  });

  it('answers created with the task when the key has one, and voids nothing', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: 1 });
    const task = store.addTask({ taskKey: KEY, clientId: 1, phoneId: phone.id, recipient: '+38160111222', message: 'm', scheduledAt: new Date(), scheduledLocal: '2026-01-01 10:00:00' });

    await expect(sut.settle(KEY)).resolves.toMatchObject({ outcome: 'created', task: { id: task.id } });
    expect(store.voidedKeys.size).toBe(0);
  });

  it('voids a key that has no task, and answers voided again when asked again', async () => {
    await expect(sut.settle(KEY)).resolves.toEqual({ outcome: 'voided' });
    await expect(sut.settle(KEY)).resolves.toEqual({ outcome: 'voided' });
    expect([...store.voidedKeys]).toEqual([KEY]);
  });
});
