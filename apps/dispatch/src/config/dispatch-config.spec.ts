import { loadConfig } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { readDispatchConfig } from './dispatch-config.js';

describe(readDispatchConfig.name, () => {
  it('keeps published outbox messages 3 days and finished webhook deliveries 7, prunes every 5 minutes, and keeps tasks for ever unless told otherwise', () => {
    expect(loadConfig(readDispatchConfig, {})).toMatchObject({ retentionIntervalS: 300, outboxRetentionS: 259_200, webhookRetentionS: 604_800, taskRetentionDays: undefined });
  });

  it('takes the retention settings from SMSQ_RETENTION_* and SMSQ_TASK_RETENTION_DAYS, small ones too', () => {
    const env = { SMSQ_RETENTION_INTERVAL_S: '15', SMSQ_RETENTION_OUTBOX_S: '120', SMSQ_RETENTION_WEBHOOK_S: '120', SMSQ_TASK_RETENTION_DAYS: '90' };
    expect(loadConfig(readDispatchConfig, env)).toMatchObject({ retentionIntervalS: 15, outboxRetentionS: 120, webhookRetentionS: 120, taskRetentionDays: 90 });
  });

  it('refuses a negative, fractional or zero period, naming the variable', () => {
    expect(() => loadConfig(readDispatchConfig, { SMSQ_RETENTION_WEBHOOK_S: '-604800' })).toThrow(/SMSQ_RETENTION_WEBHOOK_S must be an integer/);
    expect(() => loadConfig(readDispatchConfig, { SMSQ_RETENTION_OUTBOX_S: '1.5' })).toThrow(/SMSQ_RETENTION_OUTBOX_S must be an integer/);
    expect(() => loadConfig(readDispatchConfig, { SMSQ_TASK_RETENTION_DAYS: '0' })).toThrow(/SMSQ_TASK_RETENTION_DAYS must be an integer from 1/);
  });

  it('pauses a phone the carrier refused 1, 5, 15 then 60 minutes unless SMSQ_PAUSE_STEPS_S says otherwise, and refuses a list it cannot read', () => {
    expect(loadConfig(readDispatchConfig, {})).toMatchObject({ pauseStepsS: [60, 300, 900, 3600] });
    expect(loadConfig(readDispatchConfig, { SMSQ_PAUSE_STEPS_S: '5, 10' })).toMatchObject({ pauseStepsS: [5, 10] });
    expect(() => loadConfig(readDispatchConfig, { SMSQ_PAUSE_STEPS_S: '60,0' })).toThrow(/SMSQ_PAUSE_STEPS_S must be 1 to 10 positive/);
    expect(() => loadConfig(readDispatchConfig, { SMSQ_PAUSE_STEPS_S: 'soon' })).toThrow(/SMSQ_PAUSE_STEPS_S/);
  });
});
