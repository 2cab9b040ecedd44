import { Injectable, Logger } from '@nestjs/common';
import {
  InvalidRequestError,
  NotFoundError,
  valueOf,
  type BatchAnswer,
  type ItemOutcome,
  type ReportedStatus,
  type TaskReportBatchCommand,
  type TaskReportCommand,
  type TaskReported,
  type TaskReportItem,
} from '@smsq/contracts';
import { ContractExceptionFilter } from '@smsq/platform';
import { DispatchConfig } from '../config/dispatch-config.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { isStoredId } from '../database/stored-id.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { tasksFailed, tasksRerouted, tasksRetried, tasksSent } from '../metrics/task-counters.js';
import { RoutingService } from '../routing/routing.service.js';
import { LAST_SEEN_RESOLUTION_MS } from './claim-scope.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { PhonePauses } from '../phones/phone-pauses.js';
import { refundOfFailedTask } from '../outbox/refund-message.js';
import { decideReport, outcomeOf, type ReportedTask } from './report-decision.js';
import { TaskClaimsService } from './task-claims.service.js';
import { TaskReportsRepository } from './task-reports.repository.js';

/** The error of a task its worker reported failed without saying why. */
export const UNEXPLAINED_FAILURE = 'the worker reported the send as failed';

/** A retried task with no other phone to go to waits this long per attempt so far before its phone may take it again. */
export const RETRY_BACKOFF_S_PER_ATTEMPT = 10;

/** Where a retried task went: the phone it is on now, and whether it moved there. */
interface Requeued {
  phoneId: number;
  moved: boolean;
}


/**
 * A worker's outcome for the task it holds. `failed` owes the client its credit back: the refund
 * is written to the outbox in the transaction that fails the task, so it exists exactly when the
 * failure does and is delivered exactly once whatever is retried, redelivered or restarted.
 * `delivered` records the carrier's delivery report and leaves the task `sent`. `failed` with
 * `retry` (the phone's word that nothing left it) puts the task back in the queue, on another
 * usable phone where there is one, until SMSQ_MAX_ATTEMPTS claims; then it fails as any failure.
 * With `reason: carrier_volume` the phone is paused first (`PhonePauses`) and the attempt does not
 * count: the carrier refused the phone, not the task.
 * `released` (batches only) gives back a claim the phone never saw, attempt and all.
 */
@Injectable()
export class TaskReportsService {
  private readonly logger = new Logger(TaskReportsService.name);
  /** When this instance last recorded a report of each phone as its contact. */
  private readonly contactRecordedAt = new Map<number, number>();
  private readonly errors = new ContractExceptionFilter();

  constructor(
    private readonly config: DispatchConfig,
    private readonly reports: TaskReportsRepository,
    private readonly outbox: OutboxRepository,
    private readonly routing: RoutingService,
    private readonly signals: DueSignals,
    private readonly claims: TaskClaimsService,
    private readonly pauses: PhonePauses,
  ) {}

  /** One report: the batch of one. */
  async report(command: TaskReportCommand): Promise<TaskReported> {
    const { tokenId, phoneId, ...report } = command;
    const { results } = await this.reportMany({ tokenId, ...(phoneId === undefined ? {} : { phoneId }), reports: [report] });
    return valueOf(results[0]!);
  }

  /**
   * Many reports of one token (`task-statuses`), each answered as `report` alone would answer it,
   * in order; one that fails fails alone. The usual ones, `sent` and `delivered` by their holder,
   * are applied together in one statement each; the rest, and any task reported twice in the
   * batch (so its reports apply in their order), take the single report's path one by one. A
   * `released` report, in its place among them, gives the claim back.
   */
  async reportMany(command: TaskReportBatchCommand): Promise<BatchAnswer<TaskReported>> {
    if (command.phoneId !== undefined) await this.recordContact(command.phoneId);
    await this.recordReportedParts(command);
    const together = await this.appliedTogether(command);
    const results: ItemOutcome<TaskReported>[] = [];
    for (const report of command.reports) {
      const { status } = report;
      if (together.applied.has(report.id)) results.push({ ok: true, value: { id: report.id, status: 'sent' } });
      else if (status === 'released') results.push(await this.outcomeOf(this.release(command.tokenId, report)));
      else results.push(await this.outcomeOf(this.applyOne(command.tokenId, { ...report, status }, together.tried.has(report.id))));
    }
    return { results };
  }

  /** The parts the worker counted of its sealed messages, before their `sent` is applied; a failure here leaves them counted as 1. */
  private async recordReportedParts(command: TaskReportBatchCommand): Promise<void> {
    if (!isStoredId(command.tokenId)) return;
    const counted = command.reports.flatMap((report) =>
      (report.status === 'sent' || report.status === 'delivered') && report.segments !== undefined && isStoredId(report.id) ? [{ id: report.id, segments: report.segments }] : [],
    );
    await this.reports.recordReportedParts(counted, command.tokenId).catch((error: Error) => this.logger.warn(`reported parts not recorded: ${error.message}`));
  }

  /**
   * A task its worker claimed and never handed to the phone (say, a send before it in its batch hung):
   * the claim is undone, attempt included, even after its lease returned it, so an untried task
   * never runs out of attempts. Not found, as any report, unless the token has a claim to give back.
   */
  private async release(tokenId: number, report: TaskReportItem): Promise<TaskReported> {
    if (report.error !== undefined || report.retry !== undefined) throw new InvalidRequestError('error and retry are not allowed with status "released": the task was never tried');
    if (!(await this.claims.giveBack(report.id, tokenId))) throw new NotFoundError('task');
    return { id: report.id, status: 'pending' };
  }

  /** The error body the contract's filter would answer for this one report. */
  private async outcomeOf(work: Promise<TaskReported>): Promise<ItemOutcome<TaskReported>> {
    try {
      return { ok: true, value: await work };
    } catch (error) {
      return { ok: false, error: this.errors.toBody(error) };
    }
  }

  /**
   * The `sent` and `delivered` reports of tasks reported once in the batch, applied in one
   * statement each where they hold (`markSentIfHeld`, `markDeliveredIfHeld`). `tried`: the tasks
   * those statements looked at; a task among them not `applied` goes to the locked path.
   */
  private async appliedTogether(command: TaskReportBatchCommand): Promise<{ tried: Set<number>; applied: Set<number> }> {
    const timesReported = new Map<number, number>();
    for (const report of command.reports) timesReported.set(report.id, (timesReported.get(report.id) ?? 0) + 1);
    const usual = (status: TaskReportItem['status']) =>
      isStoredId(command.tokenId) ? command.reports.filter((report) => report.status === status && !report.retry && isStoredId(report.id) && timesReported.get(report.id) === 1).map((report) => report.id) : [];
    const sentIds = usual('sent');
    const deliveredIds = usual('delivered');
    try {
      const sent = await this.reports.markSentIfHeld(sentIds, command.tokenId);
      const delivered = await this.reports.markDeliveredIfHeld(deliveredIds, command.tokenId);
      tasksSent.inc(sent.size + delivered.newlySent.size);
      return { tried: new Set([...sentIds, ...deliveredIds]), applied: new Set([...sent, ...delivered.applied]) };
    } catch (error) {
      // Each report then takes its own path, and answers what it meets there.
      this.logger.warn(`reports not applied together: ${error instanceof Error ? error.message : String(error)}`);
      return { tried: new Set(), applied: new Set() };
    }
  }

  /** One report, as DESIGN §3 task-status answers it; `triedInOneStatement`: its usual case was already tried and did not hold. */
  private async applyOne(tokenId: number, report: TaskReportItem & { status: ReportedStatus }, triedInOneStatement: boolean): Promise<TaskReported> {
    const command = { tokenId, ...report };
    if (command.retry && command.status !== 'failed') throw new InvalidRequestError('retry is only for a failed report');
    if (!isStoredId(command.id) || !isStoredId(command.tokenId)) throw new NotFoundError('task');
    if (!triedInOneStatement) {
      const inOneStatement = await this.appliedInOneStatement(command);
      if (inOneStatement.applied) {
        if (inOneStatement.newlySent) tasksSent.inc();
        return { id: command.id, status: 'sent' };
      }
    }
    // The phone rests before its task goes back to the queue, so that the task can only go to another
    // phone or wait out the pause. A phone that could not be paused takes an ordinary retry.
    const carrierRefused = command.status === 'failed' && command.retry === true && command.reason === 'carrier_volume' && (await this.pauseRefused(command));
    let change: 'sent' | 'failed' | undefined;
    let requeued: Requeued | undefined;
    const answer = await this.reports.underTaskLock(command.id, async (task, tx): Promise<TaskReported> => {
      change = undefined;
      requeued = undefined;
      const decision = decideReport(task, command.tokenId, command.status);
      if ('repeat' in decision) return decision.repeat;
      switch (decision.apply) {
        case 'sent':
          await this.reports.markSent(command.id, tx);
          await this.outbox.enqueueTaskEvents(tx, 'task.sent', [command.id]);
          change = 'sent';
          break;
        case 'delivered':
          await this.reports.markDelivered(command.id, tx);
          if (task?.status !== 'sent') {
            await this.outbox.enqueueTaskEvents(tx, 'task.sent', [command.id]);
            change = 'sent';
          }
          await this.outbox.enqueueTaskEvents(tx, 'task.delivered', [command.id]);
          break;
        case 'failed': {
          if (command.retry && task!.status === 'pending') {
            await this.reports.forgetHolder(command.id, tx);
            return { id: command.id, status: 'pending' };
          }
          if (command.retry && (carrierRefused || task!.attempts < this.config.maxAttempts)) {
            requeued = await this.requeue(task!, carrierRefused, tx);
            return { id: command.id, status: 'pending' };
          }
          await this.reports.markFailed(command.id, command.error?.trim() || UNEXPLAINED_FAILURE, tx);
          await this.outbox.enqueue(tx, [refundOfFailedTask(decision.taskKey)]);
          await this.outbox.enqueueTaskEvents(tx, 'task.failed', [command.id]);
          change = 'failed';
          break;
        }
      }
      return { id: command.id, status: outcomeOf(decision.apply) };
    });
    if (change === 'sent') tasksSent.inc();
    if (change === 'failed') tasksFailed.inc({ reason: 'reported' });
    if (requeued) this.retried(requeued);
    return answer;
  }

  /**
   * Back in the queue: to the phone routing would choose now among the usable ones other than
   * this one, unless the client pinned it; else on the same phone after a back-off (a phone the
   * carrier refused is paused meanwhile, so the task waits out the pause too).
   */
  private async requeue(task: ReportedTask, attemptBack: boolean, tx: DbTransaction): Promise<Requeued> {
    const [other] = task.pinned ? [null] : await this.routing.chooseUsable([{ clientId: task.clientId, recipient: task.recipient, avoidPhoneId: task.phoneId }], tx);
    const to = other ?? { phoneId: task.phoneId, sim: task.sim, sticky: false };
    // A phone the carrier refused is paused: the pause is its back-off.
    await this.reports.requeue(task.id, task.phoneId, to, attemptBack ? 0 : RETRY_BACKOFF_S_PER_ATTEMPT * task.attempts, attemptBack, tx);
    if (to.phoneId !== task.phoneId) {
      await this.routing.recordAssignments(tx, [{ ...to, clientId: task.clientId, recipient: task.recipient }]);
      await this.outbox.enqueueTaskEvents(tx, 'task.rerouted', [task.id]);
    }
    return { phoneId: to.phoneId, moved: to.phoneId !== task.phoneId };
  }

  /**
   * Pauses the phone of a task the token holds, which its carrier refused for volume; whether it is
   * paused now. Only the holder's word counts: another token's report of the task pauses nothing
   * (and is answered not found). The report stands whatever happens to the pause.
   */
  private async pauseRefused(command: TaskReportItem & { tokenId: number }): Promise<boolean> {
    const phoneId = isStoredId(command.id) && isStoredId(command.tokenId) ? await this.reports.phoneHeldBy(command.id, command.tokenId) : null;
    if (phoneId === null) return false;
    try {
      await this.pauses.pause(phoneId, 'carrier_volume');
      return true;
    } catch (error) {
      this.logger.warn(`phone ${phoneId} refused for volume but not paused: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  private retried({ phoneId, moved }: Requeued): void {
    tasksRetried.inc();
    if (!moved) return;
    tasksRerouted.inc({ reason: 'retry' });
    void this.signals.announce([phoneId]);
  }

  /** A report never fails because its contact was not recorded: polls record it too. */
  private async recordContact(phoneId: number): Promise<void> {
    if (!isStoredId(phoneId) || Date.now() - (this.contactRecordedAt.get(phoneId) ?? 0) < LAST_SEEN_RESOLUTION_MS) return;
    this.contactRecordedAt.set(phoneId, Date.now());
    try {
      await this.reports.markContact(phoneId);
    } catch (error) {
      this.logger.warn(`report of phone ${phoneId} not recorded as contact: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The common reports of the holder, `sent` and `delivered`, without the locked path; false when they do not apply as such. */
  private async appliedInOneStatement(command: TaskReportItem & { tokenId: number }): Promise<{ applied: boolean; newlySent: boolean }> {
    if (command.status === 'sent') {
      const applied = (await this.reports.markSentIfHeld([command.id], command.tokenId)).has(command.id);
      return { applied, newlySent: applied };
    }
    if (command.status === 'delivered') {
      const { applied, newlySent } = await this.reports.markDeliveredIfHeld([command.id], command.tokenId);
      return { applied: applied.has(command.id), newlySent: newlySent.has(command.id) };
    }
    return { applied: false, newlySent: false };
  }
}
