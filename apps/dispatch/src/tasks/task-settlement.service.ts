import { Injectable } from '@nestjs/common';
import { outcomeOf, type ItemOutcome, type TaskSettlement } from '@smsq/contracts';
import { BillingClient } from '../billing/billing.client.js';
import { TasksRepository } from './tasks.repository.js';
import { toTaskView } from './task-view.js';

/** The error of a task that was stored after its client had been answered 503. */
export const ABANDONED_ERROR = 'abandoned: the client was answered that the task was not queued';

/**
 * Decides a task key for good: it has its task, or it is voided and never will. Under the key's
 * lock, as the create's insert is, so a key ends created or voided and never both.
 */
@Injectable()
export class TaskSettlementService {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly billing: BillingClient,
  ) {}

  settle(taskKey: string): Promise<TaskSettlement> {
    return this.tasks.underKeyLock(taskKey, async (tx): Promise<TaskSettlement> => {
      const task = await this.tasks.findByKey(taskKey, tx);
      if (task) return { outcome: 'created', task: toTaskView(task) };
      await this.tasks.voidKey(taskKey, tx);
      return { outcome: 'voided' };
    });
  }

  /**
   * `settle` for many keys, in order. A key whose task exists is settled by that alone (a stored
   * task stays stored), so the usual sweep of kept charges costs one query; the others are
   * settled one after another under their locks.
   */
  async settleMany(taskKeys: readonly string[]): Promise<ItemOutcome<TaskSettlement>[]> {
    const stored = new Map((await this.tasks.findByKeys(taskKeys.map((taskKey) => taskKey.toLowerCase()))).map((task) => [task.taskKey, task]));
    const outcomes: ItemOutcome<TaskSettlement>[] = [];
    for (const taskKey of taskKeys) {
      const task = stored.get(taskKey.toLowerCase());
      outcomes.push(task ? { ok: true, value: { outcome: 'created', task: toTaskView(task) } } : await outcomeOf(this.settle(taskKey)));
    }
    return outcomes;
  }

  /**
   * The client was told the task was not queued. A task stored after all but untouched fails and
   * is refunded; the refund is awaited, so the caller repeats until billing has it (billing
   * refunds a task once, however often it is asked).
   */
  async abandon(taskKey: string): Promise<TaskSettlement> {
    const settlement = await this.tasks.underKeyLock(taskKey, async (tx): Promise<TaskSettlement> => {
      const task = await this.tasks.findByKey(taskKey, tx);
      if (!task) {
        await this.tasks.voidKey(taskKey, tx);
        return { outcome: 'voided' };
      }
      const abandoned = (task.status === 'failed' && task.error === ABANDONED_ERROR) || (await this.tasks.abandonUntouched(taskKey, ABANDONED_ERROR, tx));
      return abandoned ? { outcome: 'voided' } : { outcome: 'created', task: toTaskView(task) };
    });
    if (settlement.outcome === 'voided') await this.billing.refund({ taskKey, reason: 'task_not_created' });
    return settlement;
  }
}
