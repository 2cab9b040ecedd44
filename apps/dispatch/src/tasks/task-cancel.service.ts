import { Injectable } from '@nestjs/common';
import { CANCELLED_ERROR, ConflictError, NotFoundError, type TaskCancelCommand, type TaskView } from '@smsq/contracts';
import { inTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { isStoredId } from '../database/stored-id.js';
import { tasksFailed } from '../metrics/task-counters.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { refundOfFailedTask } from '../outbox/refund-message.js';
import { TasksRepository } from './tasks.repository.js';
import { toTaskView } from './task-view.js';

/**
 * A client takes back a task before any worker has it. Only a task never handed out can be
 * cancelled: one returned to the queue after an unreported claim may have been sent already. The
 * refund goes into the outbox in the transaction that fails the task, so it is owed exactly when
 * the cancellation happened and is delivered once.
 */
@Injectable()
export class TaskCancelService {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly tasks: TasksRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  async cancel(command: TaskCancelCommand): Promise<TaskView> {
    if (!isStoredId(command.clientId) || !isStoredId(command.id)) throw new NotFoundError('task');
    const cancelled = await inTransaction(this.db, async (tx) => {
      const task = await this.tasks.failUntouchedOfClient(command.clientId, command.id, CANCELLED_ERROR, tx);
      if (task) {
        await this.outbox.enqueue(tx, [refundOfFailedTask(task.taskKey, 'task_cancelled')]);
        await this.outbox.enqueueTaskEvents(tx, 'task.cancelled', [task.id]);
      }
      return task;
    });
    if (cancelled) {
      tasksFailed.inc({ reason: 'cancelled' });
      return toTaskView(cancelled);
    }
    const task = await this.tasks.findOfClient(command.clientId, command.id);
    if (!task) throw new NotFoundError('task');
    throw new ConflictError(`the task is ${task.status === 'pending' ? 'back in the queue after a claim' : task.status} and can no longer be cancelled`);
  }
}
