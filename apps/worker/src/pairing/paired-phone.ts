import { homedir } from 'node:os';
import { join } from 'node:path';
import { readJsonFile, writePrivateJson } from '../state/private-file.js';

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

export function readPairedPhone(stateDir: string): PairedPhone | undefined {
  const file = pairedPhoneFile(stateDir);
  const stored = readJsonFile(file);
  if (stored === undefined) return undefined;
  if (!isPairedPhone(stored)) throw new Error(`${file} is not a paired phone; pair again`);
  return stored;
}

export function writePairedPhone(stateDir: string, phone: PairedPhone): string {
  const file = pairedPhoneFile(stateDir);
  writePrivateJson(file, phone);
  return file;
}

function isPairedPhone(value: unknown): value is PairedPhone {
  if (typeof value !== 'object' || value === null) return false;
  const phone = value as Record<string, unknown>;
  return (
    typeof phone['baseUrl'] === 'string' &&
    typeof phone['workerToken'] === 'string' &&
    typeof phone['phoneId'] === 'number' &&
    typeof phone['deviceId'] === 'string' &&
    typeof phone['name'] === 'string' &&
    DRIVERS.includes(phone['driver'] as DriverName) &&
    (phone['gatewayUrl'] === null || typeof phone['gatewayUrl'] === 'string')
  );
}
