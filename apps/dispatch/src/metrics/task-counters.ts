import { metricsOf } from '@smsq/platform';
import { Counter } from 'prom-client';

const registers = [metricsOf('dispatch').registry];

/** Why a task ended `failed`: each is counted once, when the transaction that fails it commits. */
export const TASK_FAILURE_REASONS = ['reported', 'attempts_exhausted', 'expired', 'cancelled', 'opted_out'] as const;
export type TaskFailureReason = (typeof TASK_FAILURE_REASONS)[number];

export const WEBHOOK_DELIVERY_OUTCOMES = ['delivered', 'http_error', 'unreachable', 'gone'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

/*
 * Counted after the change commits, and only by the request or sweep that made it: a repeat, a
 * redelivery or another replica's sweep finds nothing to change and counts nothing, so summing
 * every dispatch replica gives the number of tasks.
 */

export const tasksCreated = new Counter({ name: 'smsq_tasks_created_total', help: 'Tasks stored (a repeated create is not counted)', registers });

export const tasksClaimed = new Counter({ name: 'smsq_tasks_claimed_total', help: 'Claims handed to a worker (a task claimed again after its lease ran out counts again)', registers });

export const tasksSent = new Counter({ name: 'smsq_tasks_sent_total', help: 'Tasks that became sent', registers });

export const tasksFailed = new Counter({
  name: 'smsq_tasks_failed_total',
  help: 'Tasks that became failed, by reason: reported by the worker, attempts_exhausted, expired, cancelled, opted_out (its recipient opted out while it was queued)',
  labelNames: ['reason'] as const,
  registers,
});

export const tasksExpired = new Counter({ name: 'smsq_tasks_expired_total', help: 'Tasks failed as expired: not sent before their ttl, expires_at or SMSQ_TASK_MAX_AGE_S', registers });

export const claimLeaseExpiries = new Counter({
  name: 'smsq_claim_lease_expiries_total',
  help: 'Claims not reported within SMSQ_CLAIM_TIMEOUT_S, by what became of the task: returned (due again) or failed (attempts exhausted)',
  labelNames: ['outcome'] as const,
  registers,
});

/** Why a task moved to another phone: failover off a phone that cannot send it, or a retry the phone asked for. */
export const TASK_REROUTE_REASONS = ['failover', 'retry'] as const;

export const tasksRerouted = new Counter({
  name: 'smsq_tasks_rerouted_total',
  help: 'Waiting tasks moved to another phone, by reason: failover (their phone disabled, silent or at its daily limit) or retry (a failure the phone said sent nothing)',
  labelNames: ['reason'] as const,
  registers,
});

export const tasksRetried = new Counter({ name: 'smsq_tasks_retried_total', help: 'Failures a phone reported as retryable that put their task back in the queue', registers });

export const webhookDeliveries = new Counter({
  name: 'smsq_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome: delivered (2xx), http_error (another status; retried), unreachable (no answer; retried), gone (410: the endpoint is disabled)',
  labelNames: ['outcome'] as const,
  registers,
});

// Every label value shows from the start, at 0, so rate() and absent() see a series before the first event.
for (const reason of TASK_FAILURE_REASONS) tasksFailed.inc({ reason }, 0);
for (const outcome of ['returned', 'failed']) claimLeaseExpiries.inc({ outcome }, 0);
for (const outcome of WEBHOOK_DELIVERY_OUTCOMES) webhookDeliveries.inc({ outcome }, 0);
for (const reason of TASK_REROUTE_REASONS) tasksRerouted.inc({ reason }, 0);
