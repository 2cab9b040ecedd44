import { createSmsqClient, type SmsqClient as TypedClient } from '@smsq/client';
import type { WorkerConfig } from '../config/worker-config.js';
import type { FailureReason, PhoneHealth } from '../drivers/phone-driver.js';
import { describeErrorBody, describeFetchFailure, retryAfterMs } from '../http/http-answers.js';
import type { InboundReply } from '../replies/reply-sealer.js';
import { parsePendingTask, parsePendingTasks, type ParsedPoll } from './pending-task.js';

/** An HTTP answer that was not a success; `reason` is the error body in a few words. */
export interface Refusal {
  kind: 'refused';
  status: number;
  reason: string;
  retryAfterMs?: number;
}

/** Either no answer came at all (connection refused, reset, timed out). */
export interface Unreachable {
  kind: 'unreachable';
  reason: string;
}

export type PollAnswer = ParsedPoll | Refusal | Unreachable | { kind: 'cancelled' };

/** A batched claim's answer: the tasks claimed (none when nothing is due), or why there are none. */
export type BatchPollAnswer = { kind: 'tasks'; items: ParsedPoll[] } | { kind: 'malformed'; problem: string } | Refusal | Unreachable | { kind: 'cancelled' };

/**
 * Why a task failed, where the worker knows: the phone's `FailureReason` (with `retry`), or
 * `cannot_decrypt`, an encrypted message this worker could not open (never with `retry`: it never
 * reached the phone and never will; smsq fails it for good and refunds it once).
 */
export type ReportReason = FailureReason | 'cannot_decrypt';

export interface TaskStatusReport {
  id: number;
  /** `delivered`: sent, and the phone has the carrier's delivery report. */
  status: 'sent' | 'failed' | 'delivered';
  error?: string;
  /** With `failed` only: the phone's own word that nothing was sent, so smsq may queue the task again. */
  retry?: true;
  /** With `failed` only: `carrier_volume` with `retry` (smsq pauses the phone), `cannot_decrypt` without. */
  reason?: ReportReason;
  /** With the send's outcome of an encrypted task: the SMS parts of its text, which smsq cannot count (1–49). */
  segments?: number;
}

/** A claimed task given back untried (task-statuses only): smsq undoes the claim, attempt and all, and the task is due again at once. */
export interface ReleaseReport {
  id: number;
  status: 'released';
}

/** What task-statuses takes: an outcome, or a task given back. */
export type BatchReport = TaskStatusReport | ReleaseReport;

/**
 * A report smsq took; `taskStatus` is the status it answered (`pending` when a retried failure went
 * back to the queue), `next` the task it claimed in the same request when asked to (`idle`: none due).
 */
export type ReportAnswer = { kind: 'accepted'; taskStatus?: string; next?: ParsedPoll } | Refusal | Unreachable;

/** The client's own words each way (`reply-keywords`), as smsq keeps them; possibly none. */
export interface OwnReplyKeywords {
  kind: 'words';
  optOutWords: string[];
  optInWords: string[];
}

/** One report's result inside a batch: what task-status would have answered for it alone. */
export type ReportResult = { kind: 'accepted'; taskStatus?: string } | Refusal;

/** A batch of reports smsq took: one result per report in order, and the tasks it claimed with them when asked. */
export type BatchReportAnswer = { kind: 'accepted'; results: ReportResult[]; next?: ParsedPoll[] } | Refusal | Unreachable;

/** A POST's answer: its body and when it came, when it was a success. */
type PostAnswer<Body> = { kind: 'accepted'; body: Body; receivedAt: number; serverDate: string | null } | Refusal | Unreachable;

/** What the typed client answers: the success body or the error body, and the response they came in. */
interface TypedAnswer<Body> {
  data?: Body;
  error?: unknown;
  response: Response;
}

/** The report's `error` is kept short; the contract allows more, a log line does not need it. */
const MAX_ERROR_LENGTH = 500;

/** smsq's worker endpoints (DESIGN.md §3): long-poll `pending-tasks`, report `task-status`, sync `inbound`, `phone-health`, read `reply-keywords`. */
export class SmsqClient {
  private readonly api: TypedClient;

  constructor(private readonly config: Pick<WorkerConfig, 'baseUrl' | 'token' | 'waitS' | 'timings'>) {
    this.api = createSmsqClient({ baseUrl: config.baseUrl, workerToken: config.token });
  }

  /**
   * Claims one task, holding the request up to `waitS` seconds. `cancel` aborts the request only
   * while no answer has started: once smsq answers, a task it claimed for us must reach us, so the
   * body is read to the end (the gateway releases a claim only when its poller vanished).
   */
  pollPendingTask(cancel: AbortSignal): Promise<PollAnswer> {
    return this.longPoll({}, cancel, parsePendingTask);
  }

  /** Claims up to `limit` tasks at once (`pending-tasks?limit=N`), holding the request as `pollPendingTask` does. */
  pollPendingTasks(limit: number, cancel: AbortSignal): Promise<BatchPollAnswer> {
    return this.longPoll({ limit }, cancel, (body, receivedAt, serverDate) => {
      const tasks = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['tasks'] : undefined;
      const items = parsePendingTasks(tasks, receivedAt, serverDate);
      return Array.isArray(items) ? { kind: 'tasks' as const, items } : items;
    });
  }

  private async longPoll<Parsed>(query: { limit?: number }, cancel: AbortSignal, parse: (body: unknown, receivedAt: number, serverDate: string | null) => Parsed): Promise<Parsed | Refusal | Unreachable | { kind: 'cancelled' }> {
    if (cancel.aborted) return { kind: 'cancelled' };
    const timeoutMs = this.config.waitS * 1000 + this.config.timings.pollGraceMs;
    const request = new AbortController();
    const timer = setTimeout(() => request.abort(new DOMException('the long poll took too long', 'TimeoutError')), timeoutMs);
    let cancelled = false;
    const onCancel = (): void => {
      cancelled = true;
      request.abort(cancel.reason);
    };
    cancel.addEventListener('abort', onCancel, { once: true });
    // Once the answer starts, cancelling no longer aborts it: the body is read to the end.
    const fetchUntilAnswered = async (input: Request): Promise<Response> => {
      const response = await fetch(input);
      cancel.removeEventListener('abort', onCancel);
      return response;
    };
    try {
      const { data, error, response } = await this.api.GET('/smsapi/pending-tasks', { params: { query: { wait: this.config.waitS, ...query } }, signal: request.signal, fetch: fetchUntilAnswered });
      if (!response.ok) return refusal(response, error);
      return parse(data, Date.now(), response.headers.get('date'));
    } catch (error) {
      if (cancelled) return { kind: 'cancelled' };
      return { kind: 'unreachable', reason: describeFetchFailure(error, timeoutMs) };
    } finally {
      clearTimeout(timer);
      cancel.removeEventListener('abort', onCancel);
    }
  }

  /**
   * One attempt at reporting a task's outcome; retrying is the caller's decision. With `askNext`,
   * smsq also claims the next due task in the same request (DESIGN §3 task-status, `next`).
   */
  async reportTaskStatus(report: TaskStatusReport, askNext = false): Promise<ReportAnswer> {
    const body: TaskStatusReport & { next?: true } = reportBody(report);
    if (askNext) body.next = true;
    const answer = await this.attempt((signal) => this.api.POST('/smsapi/task-status', { body, signal }));
    if (answer.kind !== 'accepted') return answer;
    const taskStatus: unknown = answer.body?.status;
    const accepted = typeof taskStatus === 'string' ? { kind: 'accepted' as const, taskStatus } : { kind: 'accepted' as const };
    const next = askNext ? answer.body?.next : undefined;
    return next === undefined ? accepted : { ...accepted, next: parsePendingTask(next, answer.receivedAt, answer.serverDate) };
  }

  /**
   * One attempt at reporting many outcomes at once (`task-statuses`); retrying is the caller's
   * decision. With `next`, smsq also claims up to that many tasks in the same request.
   */
  async reportTaskStatuses(reports: BatchReport[], next?: number): Promise<BatchReportAnswer> {
    const body = { reports: reports.map((report) => (report.status === 'released' ? { id: report.id, status: report.status } : reportBody(report))), ...(next === undefined ? {} : { next }) };
    const answer = await this.attempt((signal) => this.api.POST('/smsapi/task-statuses', { body, signal }));
    if (answer.kind !== 'accepted') return answer;
    const results = answer.body?.results;
    if (!Array.isArray(results) || results.length !== reports.length) return { kind: 'refused', status: 502, reason: 'the answer has no result for each report' };
    const parsed = results.map((result): ReportResult =>
      result.ok ? { kind: 'accepted', taskStatus: result.status } : { kind: 'refused', status: result.http_status, reason: describeErrorBody(result) },
    );
    const tasks = next === undefined ? undefined : parsePendingTasks(answer.body?.tasks ?? [], answer.receivedAt, answer.serverDate);
    return Array.isArray(tasks) ? { kind: 'accepted', results: parsed, next: tasks } : { kind: 'accepted', results: parsed };
  }

  /**
   * One attempt at storing replies; smsq keeps each `external_id` once, so offering them again is
   * safe. A sealed reply says so (`encrypted`) and carries the keyword the worker found in its text.
   */
  async postInbound(replies: InboundReply[]): Promise<ReportAnswer> {
    const messages = replies.map((reply) => ({
      from: reply.from,
      message: reply.message,
      received_at: reply.receivedAt,
      external_id: reply.externalId,
      ...(reply.encrypted ? { encrypted: true as const } : {}),
      ...(reply.keyword === undefined ? {} : { keyword: reply.keyword }),
    }));
    return this.accepted(await this.attempt((signal) => this.api.POST('/smsapi/inbound', { body: { messages }, signal })));
  }

  /**
   * The client's own reply keywords (`GET /smsapi/reply-keywords`), which a worker that seals
   * replies needs to mark them, smsq being unable to read them.
   */
  async getReplyKeywords(): Promise<OwnReplyKeywords | Refusal | Unreachable> {
    const answer = await this.attempt((signal) => this.api.GET('/smsapi/reply-keywords', { signal }));
    if (answer.kind !== 'accepted') return answer;
    const optOut: unknown = answer.body?.opt_out_words;
    const optIn: unknown = answer.body?.opt_in_words;
    if (!isListOfText(optOut) || !isListOfText(optIn)) return { kind: 'refused', status: 502, reason: 'the answer has no opt_out_words and opt_in_words lists of text' };
    return { kind: 'words', optOutWords: optOut, optInWords: optIn };
  }

  async postPhoneHealth(health: PhoneHealth): Promise<ReportAnswer> {
    const body = { battery_percent: health.batteryPercent, charging: health.charging, connection: health.connection };
    return this.accepted(await this.attempt((signal) => this.api.POST('/smsapi/phone-health', { body, signal })));
  }

  private accepted(answer: PostAnswer<unknown>): ReportAnswer {
    return answer.kind === 'accepted' ? { kind: 'accepted' } : answer;
  }

  /** One request within the report time-out: its success body, the error answer, or why none came. */
  private async attempt<Body>(call: (signal: AbortSignal) => Promise<TypedAnswer<Body>>): Promise<PostAnswer<Body | undefined>> {
    const timeoutMs = this.config.timings.reportTimeoutMs;
    try {
      const { data, error, response } = await call(AbortSignal.timeout(timeoutMs));
      return response.ok ? { kind: 'accepted', body: data, receivedAt: Date.now(), serverDate: response.headers.get('date') } : refusal(response, error);
    } catch (error) {
      return { kind: 'unreachable', reason: describeFetchFailure(error, timeoutMs) };
    }
  }
}

/**
 * A report as smsq takes it (it refuses any other combination): the error kept short, `retry` only
 * with a failure, `carrier_volume` only with both, `cannot_decrypt` only with a failure that is not
 * retried, `segments` only with a send's outcome.
 */
function reportBody(report: TaskStatusReport): TaskStatusReport {
  const failed = report.status === 'failed';
  const retried = report.retry === true && failed;
  const reasonFits = report.reason === 'carrier_volume' ? retried : report.reason === 'cannot_decrypt' && failed && !retried;
  return {
    id: report.id,
    status: report.status,
    ...(report.error === undefined ? {} : { error: report.error.slice(0, MAX_ERROR_LENGTH) }),
    ...(retried ? { retry: true as const } : {}),
    ...(reasonFits && report.reason !== undefined ? { reason: report.reason } : {}),
    ...(!failed && report.segments !== undefined ? { segments: report.segments } : {}),
  };
}

function isListOfText(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function refusal(response: Response, body: unknown): Refusal {
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  return { kind: 'refused', status: response.status, reason: describeErrorBody(body) || response.statusText, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) };
}
