import type { BackoffRange } from '../config/worker-config.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { ParsedPoll } from '../smsq/pending-task.js';
import type { BatchReport, Refusal, SmsqClient, TaskStatusReport, Unreachable } from '../smsq/smsq-client.js';
import { Backoff, sleep } from './backoff.js';

/** Statuses that are worth another try: smsq is overloaded or a service behind it is down. */
function isRetryable(answer: { kind: string; status?: number }): boolean {
  return answer.kind === 'unreachable' || (answer.kind === 'refused' && (answer.status! >= 500 || answer.status === 429));
}

/** A report with the claim it reports: retried until the claim lapses. */
export interface HeldReport {
  report: BatchReport;
  claimDeadline: number;
}

/**
 * Reports a task's outcome until smsq has it. Network errors, 5xx and 429 are retried with capped
 * exponential backoff for as long as the claim holds; after that the lease has returned the task
 * to pending and a late report could only be refused, so the reporter gives up. Any other answer
 * (404: not our claim any more, 409: already final otherwise) is final, a report with `retry` included.
 */
export class TaskReporter {
  constructor(
    private readonly smsq: Pick<SmsqClient, 'reportTaskStatus' | 'reportTaskStatuses'>,
    private readonly backoff: BackoffRange,
    private readonly log: WorkerLog,
    private readonly random: () => number = Math.random,
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
        this.log.info('reported', { task: report.id, status: report.status, retry: report.retry, attempt, ...requeued });
        return answer.next === undefined ? { accepted: true } : { accepted: true, next: answer.next };
      }
      const problem = answer.kind === 'refused' ? { http_status: answer.status, reason: answer.reason } : { reason: answer.reason };
      if (!isRetryable(answer)) {
        this.log.error('report refused', { task: report.id, status: report.status, ...problem });
        return { accepted: false };
      }
      const remainingMs = claimDeadline - Date.now();
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
            this.log.info('reported', { task: report.id, status: report.status, retry: 'retry' in report ? report.retry : undefined, attempt, ...requeued });
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
        if (entry.claimDeadline - Date.now() <= 0) {
          this.log.error('report abandoned', { task: entry.report.id, status: entry.report.status, attempts: attempt, ...details, note: 'the claim expired; the lease returns the task to pending' });
        } else {
          owed.push(entry);
        }
      }
      if (owed.length === 0) break;
      const remainingMs = Math.max(...owed.map((entry) => entry.claimDeadline - Date.now()));
      const retryAfter = retry.find(({ problem }) => problem.kind === 'refused' && problem.retryAfterMs !== undefined)?.problem as Refusal | undefined;
      const delayMs = Math.min(backoff.next(retryAfter?.retryAfterMs), remainingMs);
      for (const { entry, problem } of retry.filter(({ entry }) => owed.includes(entry))) {
        this.log.warn('report retry', { task: entry.report.id, status: entry.report.status, attempt, retry_in_ms: delayMs, ...(problem.kind === 'refused' ? { http_status: problem.status, reason: problem.reason } : { reason: problem.reason }) });
      }
      await sleep(delayMs);
    }
    return claimed === undefined ? { accepted } : { accepted, next: claimed };
  }
}
