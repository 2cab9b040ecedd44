import { REFUND_REASONS } from '@smsq/contracts';
import { metricsOf } from '@smsq/platform';
import { Counter } from 'prom-client';

/** Counted once per task, when the refund commits: a repeated refund finds the charge refunded and counts nothing. */
export const tasksRefunded = new Counter({
  name: 'smsq_tasks_refunded_total',
  help: 'Credits given back, one per task, by reason: task_failed, task_expired, task_cancelled, task_not_created',
  labelNames: ['reason'] as const,
  registers: [metricsOf('billing').registry],
});

for (const reason of REFUND_REASONS) tasksRefunded.inc({ reason }, 0);
