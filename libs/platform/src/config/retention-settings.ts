import type { EnvReader } from './env-reader.js';

const MINUTE_S = 60;
const DAY_S = 86_400;
/** Longer than anyone keeps an operational row; beyond this a value is a typo. */
const MAX_PERIOD_S = 3_650 * DAY_S;

/** The defaults of the retention settings, in seconds (docs/decisions.md, "Retention", says why). */
export const RETENTION_DEFAULTS = {
  intervalS: 300,
  outboxS: 3 * DAY_S,
  webhookS: 7 * DAY_S,
  idempotencyS: DAY_S,
  passwordResetS: DAY_S,
} as const;

/** SMSQ_RETENTION_INTERVAL_S: how often a service prunes. */
export function readRetentionIntervalS(env: EnvReader): number {
  return env.int('SMSQ_RETENTION_INTERVAL_S', RETENTION_DEFAULTS.intervalS, { min: 1, max: DAY_S });
}

/** SMSQ_RETENTION_OUTBOX_S: how long a published outbox row is kept (dispatch and inbox). */
export function readOutboxRetentionS(env: EnvReader): number {
  return env.int('SMSQ_RETENTION_OUTBOX_S', RETENTION_DEFAULTS.outboxS, { min: MINUTE_S, max: MAX_PERIOD_S });
}

/** SMSQ_RETENTION_WEBHOOK_S: how long a delivered or failed webhook delivery is kept after its last attempt. */
export function readWebhookRetentionS(env: EnvReader): number {
  return env.int('SMSQ_RETENTION_WEBHOOK_S', RETENTION_DEFAULTS.webhookS, { min: MINUTE_S, max: MAX_PERIOD_S });
}

/** SMSQ_RETENTION_IDEMPOTENCY_S: how long an Idempotency-Key's answer is replayed, and then kept no longer. */
export function readIdempotencyRetentionS(env: EnvReader): number {
  return env.int('SMSQ_RETENTION_IDEMPOTENCY_S', RETENTION_DEFAULTS.idempotencyS, { min: MINUTE_S, max: MAX_PERIOD_S });
}

/** SMSQ_RETENTION_PASSWORD_RESET_S: how long a password reset is kept after it expired. */
export function readPasswordResetRetentionS(env: EnvReader): number {
  return env.int('SMSQ_RETENTION_PASSWORD_RESET_S', RETENTION_DEFAULTS.passwordResetS, { min: 0, max: MAX_PERIOD_S });
}

/** SMSQ_TASK_RETENTION_DAYS: finished tasks and inbox messages are the clients' history, kept for ever unless this is set. */
export function readTaskRetentionDays(env: EnvReader): number | undefined {
  if (env.optionalString('SMSQ_TASK_RETENTION_DAYS') === undefined) return undefined;
  return env.int('SMSQ_TASK_RETENTION_DAYS', 0, { min: 1, max: 3_650 });
}
