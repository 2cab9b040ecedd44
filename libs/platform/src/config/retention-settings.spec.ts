import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import {
  RETENTION_DEFAULTS,
  readIdempotencyRetentionS,
  readOutboxRetentionS,
  readPasswordResetRetentionS,
  readRetentionIntervalS,
  readTaskRetentionDays,
  readWebhookRetentionS,
} from './retention-settings.js';
import type { EnvReader } from './env-reader.js';

const readAll = (env: EnvReader) => ({
  intervalS: readRetentionIntervalS(env),
  outboxS: readOutboxRetentionS(env),
  webhookS: readWebhookRetentionS(env),
  idempotencyS: readIdempotencyRetentionS(env),
  passwordResetS: readPasswordResetRetentionS(env),
  taskDays: readTaskRetentionDays(env),
});

describe('retention settings', () => {
  it('default to 5 minutes between runs, 3 days of published outbox, 7 days of finished webhooks, the 24 h replay window, a day after a reset expired, and tasks kept for ever', () => {
    expect(loadConfig(readAll, {})).toEqual({ intervalS: 300, outboxS: 259_200, webhookS: 604_800, idempotencyS: 86_400, passwordResetS: 86_400, taskDays: undefined });
    expect(RETENTION_DEFAULTS).toEqual({ intervalS: 300, outboxS: 259_200, webhookS: 604_800, idempotencyS: 86_400, passwordResetS: 86_400 });
  });

  it('takes small values, as a soak run sets them', () => {
    const env = {
      SMSQ_RETENTION_INTERVAL_S: '15',
      SMSQ_RETENTION_OUTBOX_S: '120',
      SMSQ_RETENTION_WEBHOOK_S: '120',
      SMSQ_RETENTION_IDEMPOTENCY_S: '120',
      SMSQ_RETENTION_PASSWORD_RESET_S: '0',
      SMSQ_TASK_RETENTION_DAYS: '1',
    };
    expect(loadConfig(readAll, env)).toEqual({ intervalS: 15, outboxS: 120, webhookS: 120, idempotencyS: 120, passwordResetS: 0, taskDays: 1 });
  });

  it('treats an empty SMSQ_TASK_RETENTION_DAYS as unset: tasks are kept', () => {
    expect(loadConfig(readAll, { SMSQ_TASK_RETENTION_DAYS: ' ' }).taskDays).toBeUndefined();
  });

  it.each([
    ['SMSQ_RETENTION_INTERVAL_S', '0'],
    ['SMSQ_RETENTION_INTERVAL_S', '2.5'],
    ['SMSQ_RETENTION_OUTBOX_S', '-1'],
    ['SMSQ_RETENTION_OUTBOX_S', '3d'],
    ['SMSQ_RETENTION_WEBHOOK_S', '59'],
    ['SMSQ_RETENTION_IDEMPOTENCY_S', '1e5'],
    ['SMSQ_RETENTION_PASSWORD_RESET_S', '-60'],
    ['SMSQ_TASK_RETENTION_DAYS', '0'],
    ['SMSQ_TASK_RETENTION_DAYS', '30.5'],
    ['SMSQ_TASK_RETENTION_DAYS', 'forever'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig(readAll, { [name]: value })).toThrow(new RegExp(`${name} must be an integer from`));
  });

  it('reports every bad retention variable at once', () => {
    expect(() => loadConfig(readAll, { SMSQ_RETENTION_OUTBOX_S: '-1', SMSQ_TASK_RETENTION_DAYS: 'x' })).toThrow(/SMSQ_RETENTION_OUTBOX_S[\s\S]*SMSQ_TASK_RETENTION_DAYS/);
  });
});
