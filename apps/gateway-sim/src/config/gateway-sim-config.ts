import { CommonConfig, readCommonConfig, type EnvReader } from '@smsq/platform';
import { readSmsGateConfig, type SmsGateConfig } from '../smsgate/smsgate-config.js';

export const GATEWAY_SIM_MODES = ['generic', 'smsgate'] as const;
export type GatewaySimMode = (typeof GATEWAY_SIM_MODES)[number];

export class GatewaySimConfig extends CommonConfig {
  port!: number;
  /** `generic`: the simulator's own `/send` API; `smsgate`: the Local Server API of SMS Gateway for Android. */
  mode!: GatewaySimMode;
  /** Chance (0..1) that a send is answered 502, a simulated carrier failure. */
  failureRate!: number;
  /** Generic mode: a failed send says `"retry": true`, the gateway's word that nothing was sent (the worker reports it with retry). */
  failureRetry!: boolean;
  /** Chance (0..1) that a successful send is followed by a simulated reply from the recipient. */
  replyRate!: number;
  /** smsq's public base address (replies go to its `/smsapi/inbound`), without a trailing slash. */
  smsqBaseUrl!: string;
  /** A worker token for `/smsapi/inbound`; without one, replies cannot be posted. */
  workerToken?: string;
  /** The phone's settings, read only in `smsgate` mode. */
  smsgate?: SmsGateConfig;
}

export function readGatewaySimConfig(env: EnvReader): GatewaySimConfig {
  const mode = env.oneOf('GATEWAY_SIM_MODE', GATEWAY_SIM_MODES, 'generic');
  const replyRate = readRate(env, 'GATEWAY_SIM_REPLY_RATE', 0);
  const workerToken = env.optionalString('GATEWAY_SIM_WORKER_TOKEN');
  // An SMSGate phone's replies go to its webhooks, not to smsq's inbound API, so they need no token.
  env.require(mode === 'smsgate' || replyRate === 0 || workerToken !== undefined, 'GATEWAY_SIM_REPLY_RATE above 0 needs GATEWAY_SIM_WORKER_TOKEN to post the replies to smsq');
  return Object.assign(new GatewaySimConfig(), {
    ...readCommonConfig(env),
    port: env.port('GATEWAY_SIM_PORT', 3020),
    mode,
    failureRate: readRate(env, 'GATEWAY_SIM_FAILURE_RATE', 0.1),
    failureRetry: env.bool('GATEWAY_SIM_FAILURE_RETRY', false),
    replyRate,
    smsqBaseUrl: env.url('SMSQ_BASE_URL', 'http://127.0.0.1:3000', ['http', 'https']).replace(/\/+$/, ''),
    ...(workerToken === undefined ? {} : { workerToken }),
    ...(mode === 'smsgate' ? { smsgate: readSmsGateConfig(env) } : {}),
  });
}

/** A probability: a decimal number from 0 to 1. */
function readRate(env: EnvReader, name: string, fallback: number): number {
  const raw = env.optionalString(name);
  if (raw === undefined) return fallback;
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(raw) ? Number(raw) : Number.NaN;
  const usable = value >= 0 && value <= 1;
  env.require(usable, `${name} must be a number from 0 to 1, got ${JSON.stringify(raw)}`);
  return usable ? value : fallback;
}
