import type { RetryTimings } from '../config/worker-config.js';
import type { GatewayClient } from '../gateway/gateway-client.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { PendingTask } from '../smsq/pending-task.js';
import type { PollAnswer, SmsqClient } from '../smsq/smsq-client.js';
import { Backoff, sleep } from './backoff.js';
import type { TaskReporter } from './task-reporter.js';

export interface DeliveryWorkerOptions {
  concurrency: number;
  timings: RetryTimings;
  random?: () => number;
}

/**
 * The delivery loop: each of `concurrency` loops long-polls smsq for one task, sends it through
 * its gateway and reports the outcome, then polls again. `stop()` ends polling at once (an idle
 * long poll is aborted) while every task already received is still delivered and reported.
 */
export class DeliveryWorker {
  private readonly stopping = new AbortController();
  private tasksInHand = 0;

  constructor(
    private readonly smsq: Pick<SmsqClient, 'pollPendingTask'>,
    private readonly gateway: Pick<GatewayClient, 'send'>,
    private readonly reporter: Pick<TaskReporter, 'report'>,
    private readonly log: WorkerLog,
    private readonly options: DeliveryWorkerOptions,
  ) {}

  /** Runs until `stop()` and every task in hand is reported. */
  async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.options.concurrency }, (_, index) => this.pollLoop(index + 1)));
    this.log.info('stopped');
  }

  stop(): void {
    if (this.stopping.signal.aborted) return;
    this.log.info('stopping', { tasks_in_hand: this.tasksInHand });
    this.stopping.abort();
  }

  get isStopping(): boolean {
    return this.stopping.signal.aborted;
  }

  private async pollLoop(loop: number): Promise<void> {
    const { timings, random } = this.options;
    const pollBackoff = new Backoff(timings.poll, random);
    const authBackoff = new Backoff(timings.auth, random);
    while (!this.isStopping) {
      const startedAt = Date.now();
      const answer = await this.smsq.pollPendingTask(this.stopping.signal);
      if (answer.kind === 'idle' || answer.kind === 'task' || answer.kind === 'undeliverable') {
        pollBackoff.reset();
        authBackoff.reset();
      }
      switch (answer.kind) {
        case 'cancelled':
          return;
        case 'idle':
          // smsq held the request for us; only an answer that came back at once needs a pause.
          await sleep(timings.minPollIntervalMs - (Date.now() - startedAt), this.stopping.signal);
          break;
        case 'task':
          await this.deliver(answer.task, loop);
          break;
        case 'undeliverable':
          this.log.error('claimed task unusable', { loop, task: answer.id, problem: answer.problem });
          await this.settle(answer.id, { status: 'failed', error: `the task from smsq is unusable: ${answer.problem}` }, answer.claimDeadline);
          break;
        default:
          await this.backOff(answer, loop, pollBackoff, authBackoff);
      }
    }
  }

  private async backOff(answer: Exclude<PollAnswer, { kind: 'cancelled' | 'idle' | 'task' | 'undeliverable' }>, loop: number, pollBackoff: Backoff, authBackoff: Backoff): Promise<void> {
    const forToken = answer.kind === 'refused' && (answer.status === 401 || answer.status === 403);
    const delayMs = forToken ? authBackoff.next() : pollBackoff.next(answer.kind === 'refused' ? answer.retryAfterMs : undefined);
    const fields = { loop, retry_in_ms: delayMs, ...(answer.kind === 'refused' ? { http_status: answer.status } : {}), reason: answer.kind === 'malformed' ? answer.problem : answer.reason };
    if (answer.kind === 'refused') this.log.error(forToken ? 'poll refused: check WORKER_TOKEN' : 'poll refused', fields);
    else if (answer.kind === 'malformed') this.log.error('poll answer unusable', fields);
    else this.log.warn('poll failed: smsq unreachable', fields);
    await sleep(delayMs, this.stopping.signal);
  }

  private async deliver(task: PendingTask, loop: number): Promise<void> {
    this.tasksInHand++;
    try {
      this.log.info('claimed', { loop, task: task.id, attempt: numberOrString(task.attempt), phone: numberOrString(task.phoneId), client: numberOrString(task.clientId), scheduled_at: numberOrString(task.scheduledAt) });
      const outcome = await this.gateway.send(task);
      if (outcome.status === 'sent') this.log.info('delivered', { loop, task: task.id, message_id: outcome.messageId });
      else this.log.warn('delivery failed', { loop, task: task.id, error: outcome.error });
      const report = outcome.status === 'sent' ? { id: task.id, status: 'sent' as const } : { id: task.id, status: 'failed' as const, error: outcome.error };
      await this.reporter.report(report, task.claimDeadline);
    } catch (error) {
      // Nothing above should throw; if something does, the loop lives on and the lease returns the task.
      this.log.error('delivery crashed', { loop, task: task.id, reason: error instanceof Error ? error.message : String(error) });
    } finally {
      this.tasksInHand--;
    }
  }

  private async settle(id: number, report: { status: 'failed'; error: string }, claimDeadline: number): Promise<void> {
    this.tasksInHand++;
    try {
      await this.reporter.report({ id, ...report }, claimDeadline);
    } finally {
      this.tasksInHand--;
    }
  }
}

function numberOrString(value: unknown): string | number | undefined {
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}
