import type { BackoffRange } from '../config/worker-config.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { ParsedPoll } from '../smsq/pending-task.js';
import type { BatchReport, Refusal, SmsqClient, TaskStatusReport, Unreachable } from '../smsq/smsq-client.js';
import { Backoff, sleep } from './backoff.js';

/** Statuses that are worth another try: smsq is overloaded or a service behind it is down. */
function isRetryable(answer: { kind: string; status?: number }): boolean {
  return answer.kind === 'unreachable' || (answer.kind === 'refused' && (answer.status! >= 500 || answer.status === 429));
}

/**
 * How long past its claim's lapse a report of what the phone did is still retried. smsq takes the
 * last holder's report after the lease returned the task, until it is claimed again (docs/decisions.md,
 * "Leases"). Dropped at the lapse, the phone's word is lost while the lapse counts an attempt: a
 * sent task whose reports keep meeting outages runs out of attempts, and the lease fails and refunds it.
 */
export const LATE_REPORT_MS = 15 * 60_000;

/** A report with the claim it reports: retried until smsq takes it, past the claim's lapse (`LATE_REPORT_MS`). */
export interface HeldReport {
  report: BatchReport;
  claimDeadline: number;
}

/**
 * Reports a task's outcome until smsq has it. Network errors, 5xx and 429 are retried with capped
 * exponential backoff, past the claim's lapse for `LATE_REPORT_MS` while the worker runs, since smsq
 * still takes the report of the task's last holder; a `released` report only while its claim holds.
 * Any other answer (404: not our claim any more, 409: already final otherwise) is final, a report
 * with `retry` included.
 */
export class TaskReporter {
  constructor(
    private readonly smsq: Pick<SmsqClient, 'reportTaskStatus' | 'reportTaskStatuses'>,
    private readonly backoff: BackoffRange,
    private readonly log: WorkerLog,
    private readonly random: () => number = Math.random,
    /** The worker stopping: from then on a report is retried only while its claim holds, so a stop is not held up by an outage. */
    private readonly stopping?: AbortSignal,
  ) {}

  /**
   * Resolves whatever happens: whether smsq accepted the report and, when `askNext`, the task it
   * claimed for this worker in the same request.
   */
  async report(report: TaskStatusReport, claimDeadline: number, askNext = false): Promise<{ accepted: boolean; next?: ParsedPoll }> {
    const backoff = new Backoff(this.backoff, this.random);
    for (let attempt = 1; ; attempt++) {
      const answer = await this.smsq.reportTaskStatus(report, askNext);
      if (answer.kind === 'accepted') {
        // `pending`: smsq took the phone's word that nothing was sent and queued the task again; it is no longer ours.
        const requeued = answer.taskStatus === 'pending' ? { requeued: true } : {};
        this.log.info('reported', { task: report.id, status: report.status, retry: report.retry, reason: report.reason, attempt, ...requeued });
        return answer.next === undefined ? { accepted: true } : { accepted: true, next: answer.next };
      }
      const problem = answer.kind === 'refused' ? { http_status: answer.status, reason: answer.reason } : { reason: answer.reason };
      if (!isRetryable(answer)) {
        this.log.error('report refused', { task: report.id, status: report.status, ...problem });
        return { accepted: false };
      }
      const remainingMs = this.giveUpAt(report, claimDeadline) - Date.now();
      if (remainingMs <= 0) {
        this.log.error('report abandoned', { task: report.id, status: report.status, attempts: attempt, ...problem, note: 'the claim expired; the lease returns the task to pending' });
        return { accepted: false };
      }
      const delayMs = Math.min(backoff.next(answer.kind === 'refused' ? answer.retryAfterMs : undefined), remainingMs);
      this.log.warn('report retry', { task: report.id, status: report.status, attempt, retry_in_ms: delayMs, ...problem });
      await sleep(delayMs);
    }
  }

  /**
   * Reports many outcomes in one request (`task-statuses`) until smsq has each: each report is
   * retried, alone or with the others still owed, exactly as `report` retries it (5xx, 429, no
   * answer; until its own claim lapses), and any other answer is final for it. With `next`, the
   * first request smsq takes also claims up to that many tasks. Resolves with the reports smsq
   * accepted and the tasks it claimed.
   */
  async reportMany(held: HeldReport[], next?: number): Promise<{ accepted: Set<number>; next?: ParsedPoll[] }> {
    const backoff = new Backoff(this.backoff, this.random);
    const accepted = new Set<number>();
    let owed = held;
    let claimed: ParsedPoll[] | undefined;
    for (let attempt = 1; owed.length > 0; attempt++) {
      const answer = await this.smsq.reportTaskStatuses(
        owed.map((entry) => entry.report),
        claimed === undefined ? next : undefined,
      );
      let retry: { entry: HeldReport; problem: Refusal | Unreachable }[];
      if (answer.kind === 'accepted') {
        claimed ??= answer.next ?? [];
        retry = [];
        answer.results.forEach((result, index) => {
          const { report } = owed[index]!;
          if (result.kind === 'accepted') {
            accepted.add(report.id);
            const requeued = result.taskStatus === 'pending' ? { requeued: true } : {};
            this.log.info('reported', { task: report.id, status: report.status, retry: 'retry' in report ? report.retry : undefined, reason: 'reason' in report ? report.reason : undefined, attempt, ...requeued });
          } else if (isRetryable(result)) retry.push({ entry: owed[index]!, problem: result });
          else this.log.error('report refused', { task: report.id, status: report.status, http_status: result.status, reason: result.reason });
        });
      } else if (answer.kind === 'refused' && !isRetryable(answer)) {
        for (const { report } of owed) this.log.error('report refused', { task: report.id, status: report.status, http_status: answer.status, reason: answer.reason });
        retry = [];
      } else {
        retry = owed.map((entry) => ({ entry, problem: answer }));
      }
      owed = [];
      for (const { entry, problem } of retry) {
        const details = problem.kind === 'refused' ? { http_status: problem.status, reason: problem.reason } : { reason: problem.reason };
        if (this.giveUpAt(entry.report, entry.claimDeadline) - Date.now() <= 0) {
          this.log.error('report abandoned', { task: entry.report.id, status: entry.report.status, attempts: attempt, ...details, note: 'the claim expired; the lease returns the task to pending' });
        } else {
          owed.push(entry);
        }
      }
      if (owed.length === 0) break;
      const remainingMs = Math.max(...owed.map((entry) => this.giveUpAt(entry.report, entry.claimDeadline) - Date.now()));
      const retryAfter = retry.find(({ problem }) => problem.kind === 'refused' && problem.retryAfterMs !== undefined)?.problem as Refusal | undefined;
      const delayMs = Math.min(backoff.next(retryAfter?.retryAfterMs), remainingMs);
      for (const { entry, problem } of retry.filter(({ entry }) => owed.includes(entry))) {
        this.log.warn('report retry', { task: entry.report.id, status: entry.report.status, attempt, retry_in_ms: delayMs, ...(problem.kind === 'refused' ? { http_status: problem.status, reason: problem.reason } : { reason: problem.reason }) });
      }
      await sleep(delayMs);
    }
    return claimed === undefined ? { accepted } : { accepted, next: claimed };
  }

  /** When a report that smsq could not take is given up. */
  private giveUpAt(report: BatchReport, claimDeadline: number): number {
    // A late release could undo the task's next claim by this same token, and with it the holder that keeps it on its phone.
    if (report.status === 'released' || this.stopping?.aborted) return claimDeadline;
    return claimDeadline + LATE_REPORT_MS;
  }
}
