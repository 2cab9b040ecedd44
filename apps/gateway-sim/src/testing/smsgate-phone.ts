import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, startService } from '@smsq/platform';
import { AppModule } from '../app.module.js';
import { readGatewaySimConfig } from '../config/gateway-sim-config.js';
import { smsGateHttp } from '../smsgate/smsgate-http.js';

export const SMSGATE_AUTH = `Basic ${Buffer.from('sms:smsgate-sim-password').toString('base64')}`;

/** Quick by default: a test that watches the pace sets its own delays. */
const QUICK = { GATEWAY_SIM_FAILURE_RATE: '0', GATEWAY_SIM_SMSGATE_PENDING_MS: '5', GATEWAY_SIM_SMSGATE_SENT_MS: '5', GATEWAY_SIM_SMSGATE_DELIVERED_MS: '5' };

/** A JSON answer, which the specs read field by field (the workspace lets specs use `any` for that). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface SmsGateAnswer {
  status: number;
  headers: Headers;
  body: Json;
}

/** The simulator in SMSGate mode, started as main.ts starts it, and spoken to over HTTP. */
export class SmsGatePhone {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly url: string,
  ) {}

  static async start(env: Record<string, string> = {}, options: { random?: () => number; now?: () => number } = {}): Promise<SmsGatePhone> {
    const config = loadConfig(readGatewaySimConfig, { SMSQ_LOG_FORMAT: 'text', GATEWAY_SIM_MODE: 'smsgate', ...QUICK, ...env });
    const app = await startService({ name: 'gateway-sim', module: AppModule.register(config, options), config, port: 0, ...smsGateHttp() });
    return new SmsGatePhone(app, await app.getUrl());
  }

  /** A request with the phone's credentials unless `headers` says otherwise. */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: SMSGATE_AUTH }): Promise<SmsGateAnswer> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  /**
   * Android's limit on SMS sent (`POST /sim/limit`): `after` more SMS from now, then every further
   * send fails with RESULT_ERROR_LIMIT_EXCEEDED and is not sent; null lifts it.
   */
  async limitSends(after: number | null): Promise<SmsGateAnswer> {
    return this.call('POST', '/sim/limit', { after }, {});
  }

  /** Polls `GET /message/{id}` until the message reaches `state`, or fails past the deadline. */
  async messageIn(id: string, state: string, deadlineMs = 5_000): Promise<Json> {
    return eventually(async () => (await this.call('GET', `/message/${id}`)).body, (message) => message?.state === state, deadlineMs);
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

/** Polls until `accept` holds, and answers the last value; fails with it past the deadline. */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, deadlineMs = 5_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${deadlineMs} ms; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
