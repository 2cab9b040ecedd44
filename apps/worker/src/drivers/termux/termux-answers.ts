import type { CommandResult } from './command-runner.js';

/**
 * What the Termux:API programs print, as read in termux/termux-api (SmsInboxAPI.writeElement,
 * BatteryStatusAPI, TermuxApiPermissionActivity) and termux/termux-api-package (scripts/*.in):
 * pretty-printed JSON on standard output, exit 0 even for errors, which come as `{"error": "…"}`.
 */

/** One message as `termux-sms-list` prints it. */
export interface ListedSms {
  id: number;
  /** `inbox`, `sent`, `draft`, `failed`, `outbox`, or `` for queued (SmsInboxAPI.getMessageType). */
  type: string;
  /** `address`, or `number` from versions that print only that. */
  address: string;
  body: string;
  /** `yyyy-MM-dd HH:mm:ss` in the phone's local time (SimpleDateFormat). */
  received: string;
}

export type JsonAnswer = { ok: true; json: unknown } | { ok: false; problem: string; timedOut: boolean };

const ENOENT_HINT = 'install the termux-api package: pkg install termux-api';

/** Reads a program's JSON answer, or says in one sentence why there is none. */
export function readJsonAnswer(program: string, result: CommandResult, timeoutMs: number): JsonAnswer {
  if (result.kind !== 'exited' || result.code !== 0) return { ok: false, problem: describeFailure(program, result, timeoutMs), timedOut: result.kind === 'timed-out' };
  const text = result.stdout.trim();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The output is not repeated: it may hold someone's messages.
    return { ok: false, problem: `${program} printed ${text.length} characters that are not JSON`, timedOut: false };
  }
  const error = errorOf(json);
  return error === undefined ? { ok: true, json } : { ok: false, problem: `${program}: ${error}`, timedOut: false };
}

/** Why a run that did not exit 0 gave no answer. */
export function describeFailure(program: string, result: CommandResult, timeoutMs: number, question = 'is the Termux:API app installed?'): string {
  switch (result.kind) {
    case 'not-started':
      return result.reason === 'ENOENT' ? `${program} is not on PATH: ${ENOENT_HINT}` : `${program} could not be started (${result.reason})`;
    case 'timed-out':
      return `${program} did not answer within ${seconds(timeoutMs)} s: ${question}`;
    case 'aborted':
      return `${program} was stopped: the worker is shutting down`;
    case 'exited': {
      const output = clip((result.stderr.trim() || result.stdout.trim()).replace(/\s+/g, ' '));
      const how = result.code === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with ${result.code}`;
      return output ? `${program} ${how}: ${output}` : `${program} ${how}`;
    }
  }
}

/** The text of an `{"error": "…"}` answer (a missing permission, or Google Play's build refusing SMS). */
export function errorOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const error = (json as Record<string, unknown>).error;
  return typeof error === 'string' ? error : undefined;
}

/** The messages of a `termux-sms-list` answer; entries without an id are skipped. */
export function listedSms(json: unknown): ListedSms[] | undefined {
  if (!Array.isArray(json)) return undefined;
  return json.flatMap((entry: unknown): ListedSms[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const fields = entry as Record<string, unknown>;
    if (typeof fields._id !== 'number') return [];
    const address = typeof fields.address === 'string' ? fields.address : typeof fields.number === 'string' ? fields.number : '';
    return [{ id: fields._id, type: typeof fields.type === 'string' ? fields.type : '', address, body: typeof fields.body === 'string' ? fields.body : '', received: typeof fields.received === 'string' ? fields.received : '' }];
  });
}

/** `yyyy-MM-dd HH:mm:ss` read as local time: under Termux the worker's time zone is the phone's (termux-setup checks it). */
export function parseReceived(received: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(received);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Same phone number, whether written nationally or internationally (`0641234567`, `+381641234567`). */
export function sameNumber(a: string, b: string): boolean {
  const left = a.replace(/\D/g, '');
  const right = b.replace(/\D/g, '');
  if (left === '' || right === '') return false;
  if (left.length === right.length) return left === right;
  // The shorter may carry a national trunk prefix (`0`) where the longer has a country code.
  const tail = Math.min(left.length, right.length) - 1;
  return tail >= 7 && left.slice(-tail) === right.slice(-tail);
}

export function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(1)));
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
