import { Injectable } from '@nestjs/common';
import { NotFoundError, type TaskReportCommand, type TaskReported } from '@smsq/contracts';
import { isStoredId } from '../database/stored-id.js';
import { tasksFailed, tasksSent } from '../metrics/task-counters.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { refundOfFailedTask } from '../outbox/refund-message.js';
import { decideReport, outcomeOf } from './report-decision.js';
import { TaskReportsRepository } from './task-reports.repository.js';

/** The error of a task its worker reported failed without saying why. */
export const UNEXPLAINED_FAILURE = 'the worker reported the send as failed';

/**
 * A worker's outcome for the task it holds. `failed` owes the client its credit back: the refund
 * is written to the outbox in the transaction that fails the task, so it exists exactly when the
 * failure does and is delivered exactly once whatever is retried, redelivered or restarted.
 * `delivered` records the carrier's delivery report and leaves the task `sent`.
 */
@Injectable()
export class TaskReportsService {
  constructor(
    private readonly reports: TaskReportsRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  async report(command: TaskReportCommand): Promise<TaskReported> {
    if (!isStoredId(command.id) || !isStoredId(command.tokenId)) throw new NotFoundError('task');
    const inOneStatement = await this.appliedInOneStatement(command);
    if (inOneStatement.applied) {
      if (inOneStatement.newlySent) tasksSent.inc();
      return { id: command.id, status: 'sent' };
    }
    let change: 'sent' | 'failed' | undefined;
    const answer = await this.reports.underTaskLock(command.id, async (task, tx) => {
      change = undefined;
      const decision = decideReport(task, command.tokenId, command.status);
      if ('repeat' in decision) return decision.repeat;
      switch (decision.apply) {
        case 'sent':
          await this.reports.markSent(command.id, tx);
          await this.outbox.enqueueTaskEvents(tx, 'task.sent', [command.id]);
          change = 'sent';
          break;
        case 'delivered':
          await this.reports.markDelivered(command.id, tx);
          if (task?.status !== 'sent') {
            await this.outbox.enqueueTaskEvents(tx, 'task.sent', [command.id]);
            change = 'sent';
          }
          await this.outbox.enqueueTaskEvents(tx, 'task.delivered', [command.id]);
          break;
        case 'failed':
          await this.reports.markFailed(command.id, command.error?.trim() || UNEXPLAINED_FAILURE, tx);
          await this.outbox.enqueue(tx, [refundOfFailedTask(decision.taskKey)]);
          await this.outbox.enqueueTaskEvents(tx, 'task.failed', [command.id]);
          change = 'failed';
          break;
      }
      return { id: command.id, status: outcomeOf(decision.apply) };
    });
    if (change === 'sent') tasksSent.inc();
    if (change === 'failed') tasksFailed.inc({ reason: 'reported' });
    return answer;
  }

  /** The common reports of the holder, `sent` and `delivered`, without the locked path; false when they do not apply as such. */
  private async appliedInOneStatement(command: TaskReportCommand): Promise<{ applied: boolean; newlySent: boolean }> {
    if (command.status === 'sent') {
      const applied = await this.reports.markSentIfHeld(command.id, command.tokenId);
      return { applied, newlySent: applied };
    }
    if (command.status === 'delivered') return this.reports.markDeliveredIfHeld(command.id, command.tokenId);
    return { applied: false, newlySent: false };
  }
}
