import { InvalidRequestError, MAX_WAIT_S, REPORTED_STATUSES, type ReportedStatus } from '@smsq/contracts';
import { jsonObjectOf } from '../http/json-body.js';

/** `?wait=N`: whole seconds, above 30 counts as 30; absent means answer at once. */
export function parseWait(value: unknown): number {
  if (value === undefined || value === '') return 0;
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value.trim())) throw new InvalidRequestError('wait must be a whole number of seconds');
  return Math.min(Number(value), MAX_WAIT_S);
}

export interface StatusReport {
  id: number;
  status: ReportedStatus;
  error: string | undefined;
  /** Claim the next due task in the same request (a worker that reports and polls again saves a round trip). */
  next: boolean;
  /** With `failed` only: the phone's own word that nothing was sent, so the task may go out again. Absent when not given. */
  retry?: boolean;
}

/** The task-status body: `{"id": n, "status": "sent" | "failed" | "delivered", "error": "<optional text>", "retry": <optional, with failed>}`. */
export function parseStatusReport(body: unknown): StatusReport {
  const { id, status, error, next, retry } = jsonObjectOf(body, 'a JSON object with id and status');
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new InvalidRequestError('id must be a positive integer');
  if (typeof status !== 'string' || !(REPORTED_STATUSES as readonly string[]).includes(status)) throw new InvalidRequestError(`status must be one of ${REPORTED_STATUSES.map((name) => `"${name}"`).join(', ')}`);
  if (error !== undefined && error !== null && typeof error !== 'string') throw new InvalidRequestError('error must be a string');
  if (next !== undefined && next !== null && typeof next !== 'boolean') throw new InvalidRequestError('next must be true or false');
  if (retry !== undefined && typeof retry !== 'boolean') throw new InvalidRequestError('retry must be true or false');
  // Only a failure can be retried: a sent or delivered SMS has left the phone.
  if (retry !== undefined && status !== 'failed') throw new InvalidRequestError(`retry is allowed only with status "failed", not "${status}"`);
  const text = typeof error === 'string' ? error.replace(/\u0000/g, '').slice(0, 1000) : undefined;
  return { id, status: status as ReportedStatus, error: text === '' ? undefined : text, next: next === true, ...(retry === undefined ? {} : { retry }) };
}
