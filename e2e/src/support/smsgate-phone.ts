import { freePort } from '@smsq/testing';

/** The Local Server login and webhook signing key the SMSGate stand-in and the worker share. */
export const SMSGATE_LOGIN = { user: 'smsq-e2e', password: 'local-server-password' };
export const SMSGATE_SIGNING_KEY = 'webhook-signing-key-of-the-app';

/** A gateway-sim playing SMS Gateway for Android, quick to send and to report, failing nothing unless told. */
export function smsgateSimEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    GATEWAY_SIM_MODE: 'smsgate',
    GATEWAY_SIM_FAILURE_RATE: '0',
    GATEWAY_SIM_SMSGATE_USER: SMSGATE_LOGIN.user,
    GATEWAY_SIM_SMSGATE_PASSWORD: SMSGATE_LOGIN.password,
    GATEWAY_SIM_SMSGATE_SIGNING_KEY: SMSGATE_SIGNING_KEY,
    GATEWAY_SIM_SMSGATE_PENDING_MS: '100',
    GATEWAY_SIM_SMSGATE_SENT_MS: '100',
    GATEWAY_SIM_SMSGATE_DELIVERED_MS: '200',
    ...overrides,
  };
}

/** The bundled worker driving that stand-in, its state in `stateDir`, unpaced, its webhook receiver on a port of its own. */
export async function smsgateWorkerEnv(stateDir: string, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    WORKER_STATE_DIR: stateDir,
    SMSGATE_USER: SMSGATE_LOGIN.user,
    SMSGATE_PASSWORD: SMSGATE_LOGIN.password,
    SMSGATE_TTL_MARGIN_S: '2',
    SMSGATE_WEBHOOK_PORT: String(await freePort()),
    SMSGATE_WEBHOOK_SIGNING_KEY: SMSGATE_SIGNING_KEY,
    SMSGATE_INBOX_POLL_S: '1',
    WORKER_SENDS_PER_MINUTE: '0',
    ...overrides,
  };
}

/** A request to the stand-in at `simUrl` with its Local Server login: its API (`/message`, `/inbox`) or its test controls (`/sim/…`). */
export async function smsgateSim<T>(simUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${simUrl}${path}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`${SMSGATE_LOGIN.user}:${SMSGATE_LOGIN.password}`).toString('base64')}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}
