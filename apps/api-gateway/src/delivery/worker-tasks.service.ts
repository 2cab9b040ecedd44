import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  Patterns,
  type ClaimedTask,
  type TaskClaim,
  type TaskClaimCommand,
  type TaskReleaseCommand,
  type TaskReportCommand,
  type TaskReported,
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import type { WorkerTokenHolder } from '../identity/worker-tokens.repository.js';
import { DueSignals } from './due-signals.js';
import type { StatusReport } from './worker-requests.js';

/** The body of pending-tasks: a task to deliver, or `{}` when nothing is due. */
export type PendingTaskBody = Record<string, never> | ReturnType<typeof claimedTaskBody>;

@Injectable()
export class WorkerTasksService {
  private readonly logger = new Logger(WorkerTasksService.name);

  constructor(
    private readonly signals: DueSignals,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  /**
   * Claims one due task, waiting up to `waitS` seconds for one: it sleeps until dispatch announces
   * a due task for this token, until the earliest scheduled one comes due, or until time is up.
   * `gone` aborts when the poller disconnects; a task claimed for a poller that is gone is released.
   * `stopWaiting` (the gateway shutting down) ends the wait early with `{}`, so polls never hold a shutdown.
   */
  async claim(holder: WorkerTokenHolder, waitS: number, gone: AbortSignal, stopWaiting: AbortSignal): Promise<PendingTaskBody> {
    const deadline = Date.now() + waitS * 1000;
    const command: TaskClaimCommand = { tokenId: holder.tokenId, phoneId: holder.phoneId ?? undefined };
    for (;;) {
      const waiter = this.signals.register(holder.phoneId);
      try {
        const claim = await this.dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, command);
        if (claim.claimed) {
          if (gone.aborted) return this.release(holder, claim.task);
          return claimedTaskBody(claim.task);
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0 || gone.aborted || stopWaiting.aborted) return {};
        const untilDue = claim.nextDueAt === null ? remaining : Date.parse(claim.nextDueAt) - Date.now();
        await waiter.wait(Math.min(remaining, Math.max(0, untilDue)), AbortSignal.any([gone, stopWaiting]));
        if (stopWaiting.aborted) return {};
      } finally {
        waiter.dispose();
      }
    }
  }

  /**
   * Records a worker's outcome. With `next`, it also claims the next due task for the same token,
   * without waiting, and answers it as pending-tasks would (`{}` when none): the report stands
   * whatever the claim meets, so a claim that fails (dispatch busy, the phone disabled) is `{}`.
   */
  async report(holder: WorkerTokenHolder, report: StatusReport, gone: AbortSignal, stopWaiting: AbortSignal): Promise<{ ok: true; id: number; status: TaskReported['status']; next?: PendingTaskBody }> {
    const command: TaskReportCommand = {
      tokenId: holder.tokenId,
      id: report.id,
      status: report.status,
      error: report.error,
      ...(report.retry === undefined ? {} : { retry: report.retry }),
      // A report is contact from the phone the token is bound to (it keeps the phone online).
      ...(holder.phoneId === null ? {} : { phoneId: holder.phoneId }),
    };
    const reported = await this.dispatch.send<TaskReported>(Patterns.dispatch.taskReport, command);
    const answer = { ok: true as const, id: reported.id, status: reported.status };
    if (!report.next) return answer;
    const next = await this.claim(holder, 0, gone, stopWaiting).catch((error: Error): PendingTaskBody => {
      this.logger.warn(`next task after the report of ${reported.id} not claimed: ${error.message}`);
      return {};
    });
    return { ...answer, next };
  }

  private async release(holder: WorkerTokenHolder, task: ClaimedTask): Promise<PendingTaskBody> {
    const command: TaskReleaseCommand = { tokenId: holder.tokenId, id: task.id };
    // If this is lost the lease brings the task back anyway, one attempt poorer.
    await this.dispatch.send(Patterns.dispatch.taskRelease, command).catch((error: Error) => this.logger.warn(`claim of task ${task.id} not released: ${error.message}`));
    return {};
  }
}

/**
 * The pending-tasks answer of DESIGN.md §3, exactly, and `per_minute` only when the phone's owner
 * set a pace: a worker of a phone without one sees §3's fields and nothing else.
 */
export function claimedTaskBody(task: ClaimedTask) {
  return {
    id: task.id,
    recipient: task.recipient,
    message: task.message,
    phone_id: task.phoneId,
    client_id: task.clientId,
    scheduled_at: task.scheduledAt,
    gateway_url: task.gatewayUrl,
    attempt: task.attempt,
    claim_expires_at: task.claimExpiresAt,
    ...(task.perMinute === null ? {} : { per_minute: task.perMinute }),
  };
}

