import { Patterns, type RefundCommand, type RefundReason } from '@smsq/contracts';
import type { OutboxDraft } from './outbox.repository.js';

/** The refund a failed task is owed; billing refunds a task key once however often this arrives. */
export function refundOfFailedTask(taskKey: string, reason: RefundReason = 'task_failed'): OutboxDraft {
  const command: RefundCommand = { taskKey, reason };
  return { pattern: Patterns.billing.refund, payload: { ...command } };
}
