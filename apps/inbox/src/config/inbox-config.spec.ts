import { loadConfig } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { readInboxConfig } from './inbox-config.js';

describe(readInboxConfig.name, () => {
  it('keeps published outbox events 3 days, prunes every 5 minutes, and keeps replies for ever unless told otherwise', () => {
    expect(loadConfig(readInboxConfig, {})).toMatchObject({ retentionIntervalS: 300, outboxRetentionS: 259_200, messageRetentionDays: undefined });
  });

  it('keeps replies SMSQ_TASK_RETENTION_DAYS when set, and refuses what is not a whole number of days', () => {
    expect(loadConfig(readInboxConfig, { SMSQ_TASK_RETENTION_DAYS: '30', SMSQ_RETENTION_OUTBOX_S: '120' })).toMatchObject({ messageRetentionDays: 30, outboxRetentionS: 120 });
    expect(() => loadConfig(readInboxConfig, { SMSQ_TASK_RETENTION_DAYS: '-30' })).toThrow(/SMSQ_TASK_RETENTION_DAYS must be an integer/);
    expect(() => loadConfig(readInboxConfig, { SMSQ_TASK_RETENTION_DAYS: '30d' })).toThrow(/SMSQ_TASK_RETENTION_DAYS must be an integer/);
  });
});
