import { Patterns, type RefundCommand } from '@smsq/contracts';
import type { OutboxDraft } from './outbox.repository.js';

/** The refund a failed task is owed; billing refunds a task key once however often this arrives. */
export function refundOfFailedTask(taskKey: string): OutboxDraft {
  const command: RefundCommand = { taskKey, reason: 'task_failed' };
  return { pattern: Patterns.billing.refund, payload: { ...command } };
}
