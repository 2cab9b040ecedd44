import { loadConfig } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { readGatewayConfig } from './gateway-config.js';

describe(readGatewayConfig.name, () => {
  it('replays an Idempotency-Key for 24 hours and prunes every 5 minutes unless told otherwise', () => {
    expect(loadConfig(readGatewayConfig, {})).toMatchObject({ idempotencyReplayS: 86_400, retentionIntervalS: 300 });
  });

  it('takes a short replay window and interval, as a soak run sets them', () => {
    expect(loadConfig(readGatewayConfig, { SMSQ_RETENTION_IDEMPOTENCY_S: '120', SMSQ_RETENTION_INTERVAL_S: '15' })).toMatchObject({ idempotencyReplayS: 120, retentionIntervalS: 15 });
  });

  it('refuses a replay window a create still in progress could outlive, naming the variable', () => {
    expect(() => loadConfig(readGatewayConfig, { SMSQ_RETENTION_IDEMPOTENCY_S: '60', SMSQ_CREATE_TIMEOUT_MS: '30000', SMSQ_RPC_TIMEOUT_MS: '20000' })).toThrow(
      /SMSQ_RETENTION_IDEMPOTENCY_S must exceed the longest create .* = 72 s\), got 60/,
    );
  });

  it('refuses a negative or fractional replay window or interval', () => {
    expect(() => loadConfig(readGatewayConfig, { SMSQ_RETENTION_IDEMPOTENCY_S: '-1' })).toThrow(/SMSQ_RETENTION_IDEMPOTENCY_S must be an integer/);
    expect(() => loadConfig(readGatewayConfig, { SMSQ_RETENTION_INTERVAL_S: '0.5' })).toThrow(/SMSQ_RETENTION_INTERVAL_S must be an integer/);
  });
});
