import { eventually, freePort } from '@smsq/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from '../stack.js';
import { registerPhone } from '../worker-api.js';

/** A phone's SMSGate stand-in: the first phone's, or the second's. */
export type StandIn = 'gateway-sim' | 'gateway-sim#2';

/** One phone of the client the real workers serve: its stand-in and its own worker. */
export interface ChaosPhone {
  phoneId: number;
  standIn: StandIn;
  worker: 'worker' | 'worker#2';
  url: string;
}

/**
 * SMSQ_PHONE_SILENT_S of the run: the smallest allowed (above the 30 s long poll), so that a phone
 * whose worker died goes silent, and its waiting tasks move, within the run.
 */
export const PHONE_SILENT_S = 31;

const LOGIN = { user: 'smsq-chaos', password: 'chaos-local-server-password' };
const SIGNING_KEY = 'chaos-webhook-signing-key';

/**
 * How each phone fails by itself (issue 18): the first (lowest id, so routing's choice while it is
 * online) says "no service" for 10 % of its sends, which the worker reports with `retry`, so smsq
 * moves the task to the second; the second fails 20 % for good (refunded).
 */
const FAILURES: Record<StandIn, Record<string, string>> = {
  'gateway-sim': { GATEWAY_SIM_FAILURE_RATE: '0.1', GATEWAY_SIM_SMSGATE_FAILURE: 'no-service' },
  'gateway-sim#2': { GATEWAY_SIM_FAILURE_RATE: '0.2', GATEWAY_SIM_SMSGATE_FAILURE: 'generic-failure' },
};

/**
 * The real workers' client (Profile A) with two phones, each an SMSGate stand-in with the bundled
 * worker of its own, as in phones.failover.e2e.spec.ts: the stand-ins count every SMS they send
 * per smsq task, which is how the checks see a task lost or sent twice.
 */
export class ChaosPhones {
  private constructor(readonly phones: ChaosPhone[]) {}

  /** The stand-ins, the phones registered with `apiKey`, and each phone's worker polling `smsqBaseUrl`. */
  static async start(stack: Stack, apiKey: string, clientId: number, smsqBaseUrl: string): Promise<ChaosPhones> {
    const phones: ChaosPhone[] = [];
    for (const [slot, standIn, worker] of [[1, 'gateway-sim', 'worker'], [2, 'gateway-sim#2', 'worker#2']] as const) {
      const url = await startStandIn(stack, standIn);
      const paired = await registerPhone(stack, apiKey, { name: `chaos phone ${slot}`, device_id: `chaos-${clientId}-${slot}`, url });
      if (paired.status !== 201) throw new Error(`register-phone answered ${paired.status}: ${JSON.stringify(paired.body)}`);
      phones.push({ phoneId: paired.body.phone_id as number, standIn, worker, url });
      stack.startWorker(paired.body.worker_token as string, {
        SMSQ_BASE_URL: smsqBaseUrl,
        WORKER_DRIVER: 'smsgate',
        SMSGATE_URL: url,
        SMSGATE_USER: LOGIN.user,
        SMSGATE_PASSWORD: LOGIN.password,
        // The phone's ttl ends a second before the claim: the shortest claim that still leaves it SmsGateSender's 10 s.
        SMSGATE_TTL_MARGIN_S: '1',
        SMSGATE_DELIVERY_REPORTS: 'false',
        SMSGATE_WEBHOOK_PORT: String(await freePort()),
        SMSGATE_WEBHOOK_SIGNING_KEY: SIGNING_KEY,
        SMSGATE_INBOX_POLL_S: '5',
        // Each request to the phone: a hung phone costs a few seconds per try, not the whole claim.
        WORKER_SEND_TIMEOUT_MS: '3000',
        WORKER_SENDS_PER_MINUTE: '0',
        WORKER_WAIT_S: '2',
        WORKER_CONCURRENCY: '4',
        // Kept across the worker's restarts, as a real one's is.
        WORKER_STATE_DIR: mkdtempSync(join(tmpdir(), 'smsq-chaos-worker-')),
      }, worker);
    }
    return new ChaosPhones(phones);
  }

  /** The phone whose stand-in this is. */
  of(standIn: StandIn): ChaosPhone {
    return this.phones.find((phone) => phone.standIn === standIn)!;
  }

  /** From now on the phone takes every request and answers none (`POST /sim/hang`), or answers again. */
  async hang(standIn: StandIn, hang: boolean): Promise<void> {
    const response = await fetch(`${this.of(standIn).url}/sim/hang`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hang }), signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`${standIn} POST /sim/hang answered ${response.status}`);
  }

  /** SMS each phone actually sent, per smsq task id, by phone id. */
  async sendsByPhone(): Promise<Map<number, Record<string, number>>> {
    const counts = await Promise.all(
      this.phones.map(async (phone) => {
        const response = await fetch(`${phone.url}/sim/sends/counts`, { signal: AbortSignal.timeout(10_000) });
        if (!response.ok) throw new Error(`${phone.standIn} GET /sim/sends/counts answered ${response.status}`);
        return [phone.phoneId, ((await response.json()) as { tasks: Record<string, number> }).tasks] as const;
      }),
    );
    return new Map(counts);
  }
}

async function startStandIn(stack: Stack, standIn: StandIn): Promise<string> {
  const port = await freePort();
  stack.launch(standIn, {
    GATEWAY_SIM_PORT: String(port),
    GATEWAY_SIM_MODE: 'smsgate',
    GATEWAY_SIM_SMSGATE_USER: LOGIN.user,
    GATEWAY_SIM_SMSGATE_PASSWORD: LOGIN.password,
    GATEWAY_SIM_SMSGATE_SIGNING_KEY: SIGNING_KEY,
    GATEWAY_SIM_SMSGATE_PENDING_MS: '20',
    GATEWAY_SIM_SMSGATE_SENT_MS: '20',
    ...FAILURES[standIn],
  });
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (!(await fetch(`${url}/healthz`)).ok) throw new Error('not ready');
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  ).catch((error: Error) => {
    throw new Error(`${standIn} did not answer: ${error.message}\n${stack.logsOf(standIn).slice(-20).join('\n')}`);
  });
  return url;
}
