import { reasonOf } from '../http/http-answers.js';
import type { RetryTimings } from '../config/worker-config.js';
import type { OutgoingSms, PhoneDriver } from '../drivers/phone-driver.js';
import type { MessageOpener } from '../encryption/message-opener.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { ParsedPoll, PendingTask } from '../smsq/pending-task.js';
import type { BatchPollAnswer, PollAnswer, SmsqClient, TaskStatusReport } from '../smsq/smsq-client.js';
import { Backoff, sleep } from './backoff.js';
import { BatchReports } from './batch-reports.js';
import { CLAIM_WINDOW_MS, type ClaimSizer } from './claim-sizer.js';
import type { SendPacer } from './send-pacer.js';
import type { TaskReporter } from './task-reporter.js';
import { VolumeRefusals } from './volume-refusals.js';

export interface DeliveryWorkerOptions {
  concurrency: number;
  timings: RetryTimings;
  pacer: Pick<SendPacer, 'waitTurn'>;
  /** Opens an encrypted task's message before the phone gets it (and counts its parts); passes a plain one through. */
  opener: Pick<MessageOpener, 'textOf'>;
  /** The `limit` of each claim: 1 claims and reports one task at a time (DESIGN §3), more in batches. */
  sizer: Pick<ClaimSizer, 'limit' | 'claimed' | 'sendTook'>;
  /** After `stop()`, how long the phone may still take to settle an SMS in hand before it is left to the lease. */
  stopGraceMs: number;
  random?: () => number;
}

/** How long a delivery report is still worth reporting after the send. */
const DELIVERY_REPORT_WINDOW_MS = 15 * 60_000;

/**
 * Why a task never reached the phone: the worker stopped first; its claim lapses before its turn
 * to send (pace and jitter) or lapsed already; its phone was refused for volume after it was
 * claimed (`VolumeRefusals`), so smsq is pausing that phone.
 */
type Untried = { untried: 'stopped' | 'lapsed' | 'phone-refused' };

/** What a send owes smsq: the report (and the SMS, when its delivery report is still to come). */
interface Sent {
  report: TaskStatusReport;
  sms?: OutgoingSms;
}

/**
 * The delivery loop: each of `concurrency` loops long-polls smsq for one task, waits for its phone's
 * pacing slot, hands it to the phone and reports the outcome, then polls again; a delivery report
 * the phone receives later is reported as it comes. When the phone can send more than one task
 * within a claim (`ClaimSizer`), a loop claims a batch instead, sends its tasks one after another
 * as it would single ones (each paced, each given up when its own claim lapsed, each named so a
 * resend after a crash is refused), and reports them together, claiming the next batch in the same
 * request. `stop()` ends polling at once (an idle long poll is aborted) while every task already
 * received is still delivered and reported, within the grace. When the carrier refuses a send for
 * volume (`carrier_volume`), that phone's other tasks in hand are given back unsent (`released`),
 * and the loops poll on: smsq gives the paused phone nothing until it resumes. An encrypted task
 * is opened first (`MessageOpener`): the phone gets its text, the pace and the report count the
 * text's parts, and one that cannot be opened is reported failed (`cannot_decrypt`) unsent.
 */
export class DeliveryWorker {
  private readonly stopping = new AbortController();
  private readonly giveUp = new AbortController();
  private readonly deliveryFollows = new Set<Promise<void>>();
  private readonly volumeRefusals = new VolumeRefusals();
  private tasksInHand = 0;

  constructor(
    private readonly smsq: Pick<SmsqClient, 'pollPendingTask' | 'pollPendingTasks'>,
    private readonly driver: PhoneDriver,
    private readonly reporter: Pick<TaskReporter, 'report' | 'reportMany'>,
    private readonly log: WorkerLog,
    private readonly options: DeliveryWorkerOptions,
  ) {}

  /** Runs until `stop()` and every task in hand is reported. */
  async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.options.concurrency }, (_, index) => this.pollLoop(index + 1)));
    this.giveUp.abort();
    await Promise.all(this.deliveryFollows);
    this.log.info('stopped');
  }

  stop(): void {
    if (this.stopping.signal.aborted) return;
    this.log.info('stopping', { tasks_in_hand: this.tasksInHand });
    this.stopping.abort();
    setTimeout(() => this.giveUp.abort(), this.options.stopGraceMs).unref();
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
      const limit = this.options.sizer.limit();
      if (limit > 1) {
        const batch = await this.smsq.pollPendingTasks(limit, this.stopping.signal);
        if (batch.kind === 'cancelled') return;
        if (batch.kind !== 'tasks') {
          await this.backOff(batch, loop, pollBackoff, authBackoff);
          continue;
        }
        pollBackoff.reset();
        authBackoff.reset();
        // smsq held the request for us; only an answer that came back at once needs a pause.
        if (batch.items.length === 0) await sleep(timings.minPollIntervalMs - (Date.now() - startedAt), this.stopping.signal);
        // Each batch's report claims the next batch in the same request; a worker with work keeps going without polling.
        for (let claimed = batch.items; claimed.length > 0; ) claimed = await this.deliverBatch(claimed, loop);
        continue;
      }
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
        case 'task': {
          // Each report asks for the next due task in the same request; a worker with work keeps going without polling.
          let next: ParsedPoll | undefined = answer;
          while (next?.kind === 'task') next = await this.deliver(next.task, loop);
          if (next?.kind === 'undeliverable') await this.settle(unusable(next), next.claimDeadline);
          if (next?.kind === 'malformed') this.log.error('next task unusable', { loop, problem: next.problem });
          break;
        }
        case 'undeliverable':
          this.log.error('claimed task unusable', { loop, task: answer.id, problem: answer.problem });
          await this.settle(unusable(answer), answer.claimDeadline);
          break;
        default:
          await this.backOff(answer, loop, pollBackoff, authBackoff);
      }
    }
  }

  private async backOff(answer: Exclude<PollAnswer | BatchPollAnswer, { kind: 'cancelled' | 'idle' | 'task' | 'undeliverable' | 'tasks' }>, loop: number, pollBackoff: Backoff, authBackoff: Backoff): Promise<void> {
    const forToken = answer.kind === 'refused' && (answer.status === 401 || answer.status === 403);
    const delayMs = forToken ? authBackoff.next() : pollBackoff.next(answer.kind === 'refused' ? answer.retryAfterMs : undefined);
    const fields = { loop, retry_in_ms: delayMs, ...(answer.kind === 'refused' ? { http_status: answer.status } : {}), reason: answer.kind === 'malformed' ? answer.problem : answer.reason };
    if (answer.kind === 'refused') this.log.error(forToken ? 'poll refused: check WORKER_TOKEN' : 'poll refused', fields);
    else if (answer.kind === 'malformed') this.log.error('poll answer unusable', fields);
    else this.log.warn('poll failed: smsq unreachable', fields);
    await sleep(delayMs, this.stopping.signal);
  }

  /** Delivers and reports one task; answers the next task smsq claimed with the report, if any. */
  private async deliver(task: PendingTask, loop: number): Promise<ParsedPoll | undefined> {
    this.tasksInHand++;
    try {
      this.options.sizer.claimed(task);
      const done = await this.send(task, loop);
      if (!done) return undefined;
      if ('untried' in done) {
        // Given back at once, for smsq to move it off the paused phone; otherwise a single claim leaves it to the lease.
        if (done.untried === 'phone-refused') await this.reporter.reportMany([{ report: { id: task.id, status: 'released' }, claimDeadline: task.claimDeadline }]);
        return undefined;
      }
      const refused = this.noteVolumeRefusal(task, done.report);
      try {
        // The next task comes with the report while the phone takes one at a time; a phone that can take more polls for a batch.
        // None after a refusal for volume: the loop polls again, and smsq gives the paused phone nothing.
        const reported = await this.reporter.report(done.report, task.claimDeadline, !refused && !this.isStopping && this.options.sizer.limit() === 1);
        if (reported.accepted && done.sms) this.awaitDeliveryReport(done.sms);
        return reported.next;
      } finally {
        if (refused) this.volumeRefusals.reported(phoneOf(task));
      }
    } finally {
      this.tasksInHand--;
    }
  }

  /**
   * Delivers a claimed batch one task after another, each exactly as `deliver` does, and reports
   * what was sent or failed in one request (`BatchReports`: sooner when a send takes long); answers
   * the next batch smsq claimed with it. A task whose outcome is unknown is not reported: the lease
   * returns it, as a single claim's. A task never handed to the phone is given back (`released`)
   * with its attempt: one whose claim lapsed first, or that the worker stopped before sending, and
   * every task still waiting once one send has taken longer than the whole batch should (a phone
   * that hangs), so that they are due again at once instead of waiting out their leases behind it;
   * and, once its phone refused a send for volume, every task of that phone not yet sent.
   */
  private async deliverBatch(claimed: ParsedPoll[], loop: number): Promise<ParsedPoll[]> {
    this.tasksInHand += claimed.length;
    const reports = new BatchReports(this.reporter, this.log, CLAIM_WINDOW_MS);
    const waiting = [...claimed];
    const giveBack = (task: PendingTask) => reports.add({ report: { id: task.id, status: 'released' }, claimDeadline: task.claimDeadline });
    const refusedPhones: string[] = [];
    try {
      const following = new Map<number, OutgoingSms>();
      for (const item of claimed) if (item.kind === 'task') this.options.sizer.claimed(item.task);
      for (let item = waiting.shift(); item; item = waiting.shift()) {
        switch (item.kind) {
          case 'task': {
            const slow = setTimeout(() => {
              // The tasks still waiting go back; an unusable one stays, to be reported failed in its turn.
              const untried = waiting.flatMap((rest) => (rest.kind === 'task' ? [rest.task] : []));
              if (untried.length === 0) return;
              waiting.splice(0, waiting.length, ...waiting.filter((rest) => rest.kind !== 'task'));
              this.log.warn('giving back', { loop, tasks: untried.map((task) => task.id).join(','), reason: `task ${item.task.id} has been with the phone for over ${CLAIM_WINDOW_MS} ms` });
              for (const task of untried) giveBack(task);
              reports.now();
            }, CLAIM_WINDOW_MS);
            const done = await this.send(item.task, loop).finally(() => clearTimeout(slow));
            if (done && 'untried' in done) {
              giveBack(item.task);
            } else if (done) {
              reports.add({ report: done.report, claimDeadline: item.task.claimDeadline });
              if (done.sms) following.set(item.task.id, done.sms);
              if (this.noteVolumeRefusal(item.task, done.report)) refusedPhones.push(phoneOf(item.task));
            }
            break;
          }
          case 'undeliverable':
            this.log.error('claimed task unusable', { loop, task: item.id, problem: item.problem });
            reports.add({ report: unusable(item), claimDeadline: item.claimDeadline });
            break;
          case 'malformed':
            this.log.error('claimed task unusable', { loop, problem: item.problem });
            break;
        }
      }
      const reported = await reports.finish(this.isStopping ? undefined : this.options.sizer.limit());
      for (const [id, sms] of following) if (reported.accepted.has(id)) this.awaitDeliveryReport(sms);
      return reported.next ?? [];
    } catch (error) {
      // Nothing above should throw; if something does, the loop lives on and the leases return the tasks.
      this.log.error('delivery crashed', { loop, reason: reasonOf(error) });
      return [];
    } finally {
      for (const phone of refusedPhones) this.volumeRefusals.reported(phone);
      this.tasksInHand -= claimed.length;
    }
  }

  /**
   * Opens the task's message when it is encrypted, paces the task by its text's parts and hands it
   * to the phone: the report it owes smsq (and the SMS, when its delivery report is still to come),
   * a failure when its message cannot be sent (cannot be decrypted); `untried` when it never reached
   * the phone; undefined when its outcome is unknown and the lease returns it.
   */
  private async send(task: PendingTask, loop: number): Promise<Sent | Untried | undefined> {
    try {
      this.log.info('claimed', { loop, task: task.id, encrypted: task.encrypted || undefined, attempt: numberOrString(task.attempt), phone: numberOrString(task.phoneId), client: numberOrString(task.clientId), scheduled_at: numberOrString(task.scheduledAt), parts: task.parts === 1 || task.encrypted ? undefined : task.parts, sim: task.sim ?? undefined });
      // Opened before anything else: a message that cannot be sent is reported at once and never reaches the phone.
      const text = await this.options.opener.textOf(task);
      if (text.kind === 'unsendable') {
        this.log.error('cannot send', { loop, task: task.id, encrypted: task.encrypted || undefined, error: text.error });
        return { report: { id: task.id, status: 'failed', error: text.error, ...(text.reason === undefined ? {} : { reason: text.reason }) } };
      }
      // The parts of the text itself: smsq names 1 for a sealed one, which it cannot count.
      if (task.encrypted) this.log.info('decrypted', { loop, task: task.id, parts: text.parts });
      const phone = phoneOf(task);
      if (this.volumeRefusals.isStale(phone, task.receivedAt)) return this.notSent(task, loop, 'phone-refused');
      const turn = await this.options.pacer.waitTurn(phone, this.giveUp.signal, { perMinute: task.perMinute, parts: text.parts, jitterS: task.jitterS, deadline: task.claimDeadline });
      if (turn === 'stopped') return this.notSent(task, loop, 'stopped');
      // A claim lapses at the task's expiry at the latest: past it, the SMS is no longer this worker's to send.
      if (turn === 'lapsed' || Date.now() >= task.claimDeadline) return this.notSent(task, loop, 'lapsed');
      // Another loop's send may have been refused for volume while this one waited its turn.
      if (this.volumeRefusals.isStale(phone, task.receivedAt)) return this.notSent(task, loop, 'phone-refused');
      const sms: OutgoingSms = { taskId: task.id, messageKey: messageKeyOf(task), recipient: task.recipient, message: text.message, gatewayUrl: task.gatewayUrl, claimDeadline: task.claimDeadline, ...(task.sim === null ? {} : { sim: task.sim }) };
      const handedAt = Date.now();
      const outcome = await this.driver.send(sms, this.giveUp.signal);
      this.options.sizer.sendTook(Date.now() - handedAt);
      switch (outcome.status) {
        case 'sent': {
          this.log.info('sent', { loop, task: task.id, message_id: outcome.messageId, delivered: outcome.delivered || undefined });
          // smsq learns an encrypted message's parts only from this report, and counts them against the phone's limits.
          const segments = task.encrypted ? { segments: text.parts } : {};
          return { report: { id: task.id, status: outcome.delivered ? 'delivered' : 'sent', ...segments }, ...(outcome.delivered ? {} : { sms }) };
        }
        case 'failed': {
          this.log.warn('send failed', { loop, task: task.id, error: outcome.error, retry: outcome.retry, reason: outcome.reason });
          const reason = outcome.retry && outcome.reason ? { reason: outcome.reason } : {};
          return { report: { id: task.id, status: 'failed', error: outcome.error, ...(outcome.retry ? { retry: true } : {}), ...reason } };
        }
        case 'unknown':
          this.log.warn('outcome unknown', { loop, task: task.id, reason: outcome.reason, note: 'not reported: the lease returns the task and its next claim asks the phone again' });
          return undefined;
      }
    } catch (error) {
      // Nothing above should throw; if something does, the loop lives on and the lease returns the task.
      this.log.error('delivery crashed', { loop, task: task.id, reason: reasonOf(error) });
      return undefined;
    }
  }

  private notSent(task: PendingTask, loop: number, cause: Untried['untried']): Untried {
    this.log.warn('not sent', { loop, task: task.id, reason: NOT_SENT_REASONS[cause] });
    return { untried: cause };
  }

  /**
   * Whether this report says the carrier refused the task's phone for volume: if so, the phone's
   * tasks in hand are stale until the caller tells `volumeRefusals` the report is settled.
   */
  private noteVolumeRefusal(task: PendingTask, report: TaskStatusReport): boolean {
    if (report.reason !== 'carrier_volume') return false;
    this.volumeRefusals.refused(phoneOf(task));
    this.log.warn('phone refused for volume', { task: task.id, note: 'its other tasks in hand are given back unsent; smsq pauses the phone' });
    return true;
  }

  /** Follows a sent SMS until the phone has its delivery report, without holding up the next task. */
  private awaitDeliveryReport(sms: OutgoingSms): void {
    const follow = this.driver.followDelivery;
    if (!follow) return;
    const following = (async () => {
      try {
        if (await follow.call(this.driver, sms, this.giveUp.signal)) {
          await this.reporter.report({ id: sms.taskId, status: 'delivered' }, Date.now() + DELIVERY_REPORT_WINDOW_MS);
        }
      } catch (error) {
        this.log.error('delivery report lost', { task: sms.taskId, reason: reasonOf(error) });
      }
    })();
    this.deliveryFollows.add(following);
    void following.finally(() => this.deliveryFollows.delete(following));
  }

  private async settle(report: TaskStatusReport, claimDeadline: number): Promise<void> {
    this.tasksInHand++;
    try {
      await this.reporter.report(report, claimDeadline);
    } finally {
      this.tasksInHand--;
    }
  }
}

const NOT_SENT_REASONS: Record<Untried['untried'], string> = {
  stopped: 'the worker stopped while the task waited for its pacing slot',
  lapsed: 'its claim lapses before its turn to send (pace and jitter), or the task expired',
  'phone-refused': 'its phone was refused for volume after it was claimed',
};

/** The phone a task goes through, as the pacer and the volume refusals know it. */
function phoneOf(task: Pick<PendingTask, 'gatewayUrl'>): string {
  return task.gatewayUrl ?? 'this phone';
}

/** The failure a task smsq handed over unusable is reported with. */
function unusable(task: { id: number; problem: string }): TaskStatusReport {
  return { id: task.id, status: 'failed', error: `the task from smsq is unusable: ${task.problem}` };
}

/** `smsq-42-20261123130120`: the task id, and its scheduled time, which an earlier database's task 42 hardly shares. */
export function messageKeyOf(task: Pick<PendingTask, 'id' | 'scheduledAt'>): string {
  const scheduled = typeof task.scheduledAt === 'string' ? task.scheduledAt.replace(/\D/g, '') : '';
  return scheduled === '' ? `smsq-${task.id}` : `smsq-${task.id}-${scheduled}`;
}

function numberOrString(value: unknown): string | number | undefined {
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}
