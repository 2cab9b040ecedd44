import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createSmsqClient, type components } from '@smsq/client';
import { describeErrorBody, describeFetchFailure } from '../http/http-answers.js';
import { isLoopbackUrl } from '@smsq/platform/env';
import { writeStoredPassphrase } from '../encryption/stored-passphrase.js';
import { parsePairingCode } from './pairing-code.js';
import { readPairedPhone, writePairedPhone, type DriverName, type PairedPhone } from './paired-phone.js';

export interface PairRequest {
  /** The QR code's text; `baseUrl` and `apiKey` stand in for it, or override it. */
  code?: string;
  baseUrl?: string;
  apiKey?: string;
  name?: string;
  driver: DriverName;
  /** SMSGate's Local Server address (`http://192.168.1.20:8080`), or a generic gateway's. */
  gatewayUrl?: string;
  deviceId?: string;
  stateDir: string;
  /** The client's passphrase for encrypted messages, kept beside the token for `run`; absent: one kept earlier stays. */
  passphrase?: string;
}

export interface Paired {
  phone: PairedPhone;
  file: string;
  /** Where the passphrase was kept, when one was given. */
  passphraseFile?: string;
  warnings: string[];
}

/** A pairing that cannot go ahead; the message says why and what to do. */
export class PairingError extends Error {}

/**
 * `smsq-worker pair`: registers this phone with smsq (`POST /smsapi/register-phone` with the API key
 * and a `device_id` that stays the same across pairings) and keeps the worker token it answers in a
 * file only this user can read, with the client's passphrase when one is given (it never goes to
 * smsq). Pairing again with the same state folder rotates the token: smsq hands the same phone a
 * fresh token and revokes the old one.
 */
export async function pairPhone(request: PairRequest, timeoutMs = 15_000): Promise<Paired> {
  const code = request.code === undefined ? undefined : parseOrRefuse(request.code);
  const baseUrl = (request.baseUrl ?? code?.baseUrl)?.replace(/\/+$/, '');
  const apiKey = request.apiKey ?? code?.apiKey;
  if (baseUrl === undefined || apiKey === undefined) throw new PairingError('give the pairing code (the text of the dashboard\'s QR code), or --base-url and --api-key');
  const gatewayUrl = request.driver === 'termux' ? null : (request.gatewayUrl ?? null);
  if (gatewayUrl === null && request.driver !== 'termux') {
    throw new PairingError(`the ${request.driver} driver needs --gateway-url: ${request.driver === 'smsgate' ? 'the address SMS Gateway shows under Local Server, e.g. http://192.168.1.20:8080' : 'the gateway\'s address'}`);
  }
  const warnings: string[] = [];
  if (isLoopbackUrl(baseUrl)) {
    warnings.push(`smsq's address ${baseUrl} is a loopback address: it works only where smsq itself runs${request.driver === 'termux' ? ' (on a phone it means the phone). Set DASHBOARD_PUBLIC_API_URL on the smsq server to an address the phone can reach and take the QR code again' : ''}`);
  }

  const earlier = readPairedPhone(request.stateDir);
  const deviceId = request.deviceId ?? earlier?.deviceId ?? `smsq-worker-${randomUUID()}`;
  const name = request.name ?? earlier?.name ?? `${request.driver === 'smsgate' ? 'SMS Gateway' : request.driver === 'termux' ? 'Termux' : 'Gateway'} on ${hostname()}`;
  const registered = await registerPhone(baseUrl, apiKey, { name, device_id: deviceId, ...(gatewayUrl === null ? {} : { url: gatewayUrl }) }, timeoutMs);
  const phone: PairedPhone = { baseUrl, workerToken: registered.workerToken, phoneId: registered.phoneId, deviceId, name, driver: request.driver, gatewayUrl, pairedAt: new Date().toISOString() };
  const file = writePairedPhone(request.stateDir, phone);
  return { phone, file, ...(request.passphrase === undefined ? {} : { passphraseFile: writeStoredPassphrase(request.stateDir, request.passphrase) }), warnings };
}

function parseOrRefuse(code: string): ReturnType<typeof parsePairingCode> {
  try {
    return parsePairingCode(code);
  } catch (error) {
    throw new PairingError((error as Error).message);
  }
}

type RegisterPhoneRequest = components['schemas']['RegisterPhoneRequest'];
type RegisteredPhone = components['schemas']['RegisteredPhone'];

async function registerPhone(baseUrl: string, apiKey: string, body: RegisterPhoneRequest, timeoutMs: number): Promise<{ phoneId: number; workerToken: string }> {
  let answer: { data?: RegisteredPhone; error?: unknown; response: Response };
  try {
    answer = await createSmsqClient({ baseUrl, apiKey }).POST('/smsapi/register-phone', { body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new PairingError(`cannot reach smsq at ${baseUrl}: ${describeFetchFailure(error, timeoutMs)}`);
  }
  const { data, response } = answer;
  if (response.status === 201) {
    if (typeof data?.phone_id === 'number' && typeof data.worker_token === 'string') return { phoneId: data.phone_id, workerToken: data.worker_token };
    throw new PairingError('smsq answered the pairing without a phone id and token');
  }
  const reason = describeErrorBody(answer.error);
  switch (response.status) {
    case 401:
      throw new PairingError('smsq refused the API key: it is mistyped or revoked; create a new one in the dashboard (API keys)');
    case 403:
      throw new PairingError(`smsq refused another phone: ${reason} (a plan allows a number of phones; disable one or change the plan)`);
    case 404:
      throw new PairingError('this smsq does not pair phones (it runs Profile B, pooled gateways): ask its admin for a worker token and run with WORKER_TOKEN');
    default:
      throw new PairingError(`smsq answered ${response.status}: ${reason}`);
  }
}
