/** The reference worker's file, as the build produces it (apps/worker/dist/smsq-worker.mjs). */
export const WORKER_FILE = 'smsq-worker.mjs';

/** How the worker makes the phone send: SMS Gateway for Android (Local Server), or Termux:API on the phone itself. */
export type PairingDriver = 'smsgate' | 'termux';

export const GATEWAY_URL_PLACEHOLDER = 'http://<phone-ip>:8080';
export const DEFAULT_PHONE_NAME = 'My phone';

/** A word for a POSIX shell: bare when it is plainly safe, otherwise in single quotes (a quote inside closed, escaped, reopened). */
export function shellWord(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `node smsq-worker.mjs pair '<QR text>' --driver … [--gateway-url …] --name …`, ready to paste. */
export function pairCommand(options: { qrText: string; driver: PairingDriver; gatewayUrl?: string; name?: string }): string {
  const words = ['node', WORKER_FILE, 'pair', shellWord(options.qrText), '--driver', options.driver];
  if (options.driver === 'smsgate') words.push('--gateway-url', shellWord(options.gatewayUrl?.trim() || GATEWAY_URL_PLACEHOLDER));
  words.push('--name', shellWord(options.name?.trim() || DEFAULT_PHONE_NAME));
  return words.join(' ');
}

/** SMSGate's own user and password stay in the worker's environment; smsq never sees them. */
export function runCommand(driver: PairingDriver): string {
  const run = `node ${WORKER_FILE} run`;
  return driver === 'smsgate' ? `SMSGATE_USER='<user>' SMSGATE_PASSWORD='<password>' ${run}` : run;
}
