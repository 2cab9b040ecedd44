import { homedir } from 'node:os';
import { join } from 'node:path';
import { isInteger, isString, objectParser, oneOf, orNull, StateFile } from '../state/state-file.js';

export const DRIVERS = ['http', 'smsgate', 'termux'] as const;
export type DriverName = (typeof DRIVERS)[number];

/** What `pair` learned and `run` needs: kept in `<state dir>/phone.json`, readable by this user only. */
export interface PairedPhone {
  baseUrl: string;
  workerToken: string;
  phoneId: number;
  deviceId: string;
  name: string;
  driver: DriverName;
  /** The phone's own address (SMSGate's Local Server), or null when the worker runs on the phone. */
  gatewayUrl: string | null;
  pairedAt: string;
}

export function defaultStateDir(env: Record<string, string | undefined>): string {
  return env['WORKER_STATE_DIR']?.trim() || join(homedir(), '.smsq-worker');
}

export function pairedPhoneFile(stateDir: string): string {
  return join(stateDir, 'phone.json');
}

/** `<state dir>/phone.json`, readable by this user only: it holds the worker token. */
function pairedPhoneState(stateDir: string): StateFile<PairedPhone> {
  const parse = objectParser<PairedPhone>({ baseUrl: isString, workerToken: isString, phoneId: isInteger, deviceId: isString, name: isString, driver: oneOf(DRIVERS), gatewayUrl: orNull(isString) });
  return new StateFile(pairedPhoneFile(stateDir), parse, 'a paired phone', 'pair again');
}

export function readPairedPhone(stateDir: string): PairedPhone | undefined {
  return pairedPhoneState(stateDir).read();
}

export function writePairedPhone(stateDir: string, phone: PairedPhone): string {
  const file = pairedPhoneState(stateDir);
  file.write(phone);
  return file.path;
}
