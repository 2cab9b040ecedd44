import type { BackoffRange } from '../config/worker-config.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { ParsedPoll } from '../smsq/pending-task.js';
import type { ReportAnswer, SmsqClient, TaskStatusReport } from '../smsq/smsq-client.js';
import { Backoff, sleep } from './backoff.js';

/** Statuses that are worth another try: smsq is overloaded or a service behind it is down. */
function isRetryable(answer: ReportAnswer): boolean {
  return answer.kind === 'unreachable' || (answer.kind === 'refused' && (answer.status >= 500 || answer.status === 429));
}

/**
 * Reports a task's outcome until smsq has it. Network errors, 5xx and 429 are retried with capped
 * exponential backoff for as long as the claim holds; after that the lease has returned the task
 * to pending and a late report could only be refused, so the reporter gives up. Any other answer
 * (404: not our claim any more, 409: already final otherwise) is final, a report with `retry` included.
 */
export class TaskReporter {
  constructor(
    private readonly smsq: Pick<SmsqClient, 'reportTaskStatus'>,
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
}
