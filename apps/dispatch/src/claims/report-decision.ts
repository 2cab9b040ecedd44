import { ConflictError, NotFoundError, type ReportedStatus, type TaskReported } from '@smsq/contracts';
import type { TaskStatus } from '../generated/prisma/client.js';

/** A task as a report needs to see it. */
export interface ReportedTask {
  id: number;
  taskKey: string;
  clientId: number;
  phoneId: number;
  recipient: string;
  sim: number | null;
  pinned: boolean;
  attempts: number;
  status: TaskStatus;
  claimedByTokenId: number | null;
  deliveredAt: Date | null;
}

export type ReportDecision = { apply: ReportedStatus; taskKey: string } | { repeat: TaskReported };

/**
 * What a worker's report does (DESIGN §3 task-status). Only the token holding the claim may
 * report; to everyone else the task does not exist, so a token cannot probe other tokens' tasks.
 * A task keeps the token that last held it until the next claim: a report after the lease ran
 * out still counts, and on a final task that token's retry of the same outcome is answered as the
 * first was, while a contradicting outcome is a conflict. A released claim has no holder.
 *
 * `delivered` is `sent` with the carrier's delivery report: it sends a task still held, adds the
 * report to a sent task once (the first report's time stands), and contradicts a failed one.
 */
export function decideReport(task: ReportedTask | null, tokenId: number, status: ReportedStatus): ReportDecision {
  if (!task || task.claimedByTokenId !== tokenId) throw new NotFoundError('task');
  switch (task.status) {
    case 'claimed':
    // Its lease ran out but nobody claimed it again: the late report stands, so the SMS is not sent twice.
    case 'pending':
      return { apply: status, taskKey: task.taskKey };
    case 'sent':
      if (status === 'failed') throw new ConflictError(`task ${task.id} is already sent`);
      if (status === 'delivered' && task.deliveredAt === null) return { apply: 'delivered', taskKey: task.taskKey };
      return { repeat: { id: task.id, status: 'sent' } };
    case 'failed':
      if (status !== 'failed') throw new ConflictError(`task ${task.id} is already failed`);
      return { repeat: { id: task.id, status: 'failed' } };
    default:
      throw new NotFoundError('task');
  }
}

/** The state a report leaves its task in. */
export function outcomeOf(status: ReportedStatus): TaskReported['status'] {
  return status === 'failed' ? 'failed' : 'sent';
}
