import {
  BATCH_REPORTED_STATUSES,
  DomainError,
  FAILURE_REASONS,
  MAX_REPORTED_PARTS,
  InvalidRequestError,
  MAX_CLAIM_BATCH,
  MAX_REPORT_BATCH,
  MAX_WAIT_S,
  REPORTED_STATUSES,
  type BatchReportedStatus,
  type FailureReason,
  type ReportedStatus,
} from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';

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
  /**
   * With `failed` only: why nothing was sent, where the phone knows: `carrier_volume` (with `retry:
   * true`: the carrier or Android refused for volume; dispatch pauses the phone), or `cannot_decrypt`
   * (never retried: the worker could not open the sealed message). Absent when not given.
   */
  reason?: FailureReason;
  /** With `sent` or `delivered`: a sealed message's parts, as its worker counted the plaintext. */
  segments?: number;
}

/**
 * `?limit=N`: claim up to N tasks at once, a whole number from 1 to 100; absent (or empty, as
 * `wait`) means the single claim of DESIGN §3.
 */
export function parseClaimLimit(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{1,3}$/.test(value.trim()) || Number(value) < 1 || Number(value) > MAX_CLAIM_BATCH) {
    throw new InvalidRequestError(`limit must be a whole number from 1 to ${MAX_CLAIM_BATCH}`);
  }
  return Number(value);
}

/**
 * The task-status body: `{"id": n, "status": "sent" | "failed" | "delivered", "error": "<optional text>",
 * "retry": <optional, with failed>, "reason": <optional, with failed and retry true>}`.
 */
export function parseStatusReport(body: unknown): StatusReport {
  const fields = jsonObjectOf(body, 'a JSON object with id and status');
  const { next } = fields;
  const report = reportOf(fields, REPORTED_STATUSES, () => {
    if (next !== undefined && next !== null && typeof next !== 'boolean') throw new InvalidRequestError('next must be true or false');
  });
  return { ...report, next: next === true };
}

/** One report of task-statuses: task-status' body without `next`, which belongs to the request, or a task given back (`released`). */
export interface StatusReportItem extends Omit<StatusReport, 'next' | 'status'> {
  status: BatchReportedStatus;
}

export interface StatusReports {
  /** In the request's order: a report to apply, or the error task-status would have answered for it. */
  reports: (StatusReportItem | DomainError)[];
  /** Claim up to this many tasks once the reports are in; undefined for none. */
  next: number | undefined;
}

/**
 * The task-statuses body: `{"reports": [<task-status bodies>], "next": <optional, 1–100>}`. Only the
 * envelope refuses the request (not an object, `reports` not a list of 1–100, a bad `next`); a report
 * task-status would refuse is refused in its place, and the others stand. A report may also be
 * `{"id": n, "status": "released"}`, which task-status does not take.
 */
export function parseStatusReports(body: unknown): StatusReports {
  const { reports, next } = jsonObjectOf(body, 'a JSON object with reports');
  if (!Array.isArray(reports) || reports.length < 1 || reports.length > MAX_REPORT_BATCH) throw new InvalidRequestError(`reports must be a list of 1 to ${MAX_REPORT_BATCH} reports`);
  if (next !== undefined && (typeof next !== 'number' || !Number.isSafeInteger(next) || next < 1 || next > MAX_CLAIM_BATCH)) {
    throw new InvalidRequestError(`next must be a whole number from 1 to ${MAX_CLAIM_BATCH}`);
  }
  return { reports: reports.map(reportItemOf), next };
}

function reportItemOf(item: unknown): StatusReportItem | DomainError {
  try {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new InvalidRequestError('a report must be a JSON object with id and status');
    const fields = item as Record<string, unknown>;
    if (fields['next'] !== undefined) throw new InvalidRequestError('next belongs to the request, not to a report');
    return reportOf(fields, BATCH_REPORTED_STATUSES);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/**
 * A report's own fields, checked in task-status' order, its status one of `statuses`; `checkNext`
 * runs where task-status checks its `next`.
 */
function reportOf<Status extends BatchReportedStatus>(
  { id, status, error, retry, reason, segments }: Record<string, unknown>,
  statuses: readonly Status[],
  checkNext: () => void = () => undefined,
): Omit<StatusReportItem, 'status'> & { status: Status } {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new InvalidRequestError('id must be a positive integer');
  if (typeof status !== 'string' || !(statuses as readonly string[]).includes(status)) throw new InvalidRequestError(`status must be one of ${statuses.map((name) => `"${name}"`).join(', ')}`);
  if (error !== undefined && error !== null && typeof error !== 'string') throw new InvalidRequestError('error must be a string');
  checkNext();
  if (retry !== undefined && typeof retry !== 'boolean') throw new InvalidRequestError('retry must be true or false');
  // A released task never reached the phone: there is no failure to tell of, nor to retry.
  if (status === 'released' && ((error !== undefined && error !== null) || retry !== undefined)) throw new InvalidRequestError('error and retry are not allowed with status "released": the task was never tried');
  // Only a failure can be retried: a sent or delivered SMS has left the phone.
  if (retry !== undefined && status !== 'failed') throw new InvalidRequestError(`retry is allowed only with status "failed", not "${status}"`);
  const why = reasonOf(reason, status, retry);
  const parts = partsOf(segments, status);
  const text = typeof error === 'string' ? error.replace(/\u0000/g, '').slice(0, 1000) : undefined;
  return {
    id,
    status: status as Status,
    error: text === '' ? undefined : text,
    ...(retry === undefined ? {} : { retry }),
    ...(why === undefined ? {} : { reason: why }),
    ...(parts === undefined ? {} : { segments: parts }),
  };
}

/** A sealed message's parts, told by the worker that sent it: with a report of its sending only. */
function partsOf(segments: unknown, status: string): number | undefined {
  if (segments === undefined || segments === null) return undefined;
  if (typeof segments !== 'number' || !Number.isInteger(segments) || segments < 1 || segments > MAX_REPORTED_PARTS) {
    throw new InvalidRequestError(`segments must be a whole number from 1 to ${MAX_REPORTED_PARTS}`);
  }
  if (status !== 'sent' && status !== 'delivered') throw new InvalidRequestError(`segments is allowed only with status "sent" or "delivered", not "${status}"`);
  return segments;
}

/**
 * A reason goes only with a failure: a carrier's refusal with one that may be retried (nothing was
 * sent), a message the worker could not decrypt with one that may not (no worker with the same passphrase would do better).
 */
function reasonOf(reason: unknown, status: string, retry: unknown): FailureReason | undefined {
  if (reason === undefined || reason === null) return undefined;
  if (typeof reason !== 'string' || !(FAILURE_REASONS as readonly string[]).includes(reason)) {
    throw new InvalidRequestError(`reason must be ${FAILURE_REASONS.map((name) => `"${name}"`).join(' or ')}`);
  }
  if (reason === 'cannot_decrypt') {
    if (status !== 'failed' || retry === true) throw new InvalidRequestError('reason "cannot_decrypt" is allowed only with status "failed" and without retry');
  } else if (status !== 'failed' || retry !== true) {
    throw new InvalidRequestError(`reason "${reason}" is allowed only with status "failed" and retry true: nothing was sent`);
  }
  return reason as FailureReason;
}
