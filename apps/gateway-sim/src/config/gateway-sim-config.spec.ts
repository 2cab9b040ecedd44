import { ConfigError, loadConfig } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { readGatewaySimConfig } from './gateway-sim-config.js';

describe(readGatewaySimConfig.name, () => {
  it('has working defaults', () => {
    const config = loadConfig(readGatewaySimConfig, {});

    expect(config).toMatchObject({ port: 3020, failureRate: 0.1, replyRate: 0, smsqBaseUrl: 'http://127.0.0.1:3000' });
    expect(config.workerToken).toBeUndefined();
  });

  it('reads rates as decimal numbers from 0 to 1', () => {
    const config = loadConfig(readGatewaySimConfig, { GATEWAY_SIM_PORT: '3920', GATEWAY_SIM_FAILURE_RATE: '0.25', GATEWAY_SIM_REPLY_RATE: '1', GATEWAY_SIM_WORKER_TOKEN: 't', SMSQ_BASE_URL: 'http://smsq:3000/' });

    expect(config).toMatchObject({ port: 3920, failureRate: 0.25, replyRate: 1, workerToken: 't', smsqBaseUrl: 'http://smsq:3000' });
  });

  it.each(['1.5', '-0.1', 'often', '10%', 'NaN'])('refuses the rate %s, naming the variable', (rate) => {
    expect(() => loadConfig(readGatewaySimConfig, { GATEWAY_SIM_FAILURE_RATE: rate })).toThrow(`GATEWAY_SIM_FAILURE_RATE must be a number from 0 to 1, got ${JSON.stringify(rate)}`);
  });

  it('refuses a reply rate without a worker token to post the replies with', () => {
    expect(() => loadConfig(readGatewaySimConfig, { GATEWAY_SIM_REPLY_RATE: '0.5' })).toThrow(ConfigError);
    expect(() => loadConfig(readGatewaySimConfig, { GATEWAY_SIM_REPLY_RATE: '0.5' })).toThrow('GATEWAY_SIM_WORKER_TOKEN');
  });
});
