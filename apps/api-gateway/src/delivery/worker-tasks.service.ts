import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ERROR_STATUS,
  Patterns,
  type BatchAnswer,
  type ClaimedTask,
  type ErrorBody,
  type TaskClaim,
  type TaskClaimBatch,
  type TaskClaimBatchCommand,
  type TaskClaimCommand,
  type TaskReleaseCommand,
  type TaskReportBatchCommand,
  type TaskReportCommand,
  type TaskReported,
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import type { WorkerTokenHolder } from '../identity/worker-tokens.repository.js';
import { DueSignals } from './due-signals.js';
import type { StatusReport, StatusReportItem, StatusReports } from './worker-requests.js';

/** A task as pending-tasks hands it over. */
export type ClaimedTaskBody = ReturnType<typeof claimedTaskBody>;

/** The body of pending-tasks: a task to deliver, or `{}` when nothing is due. */
export type PendingTaskBody = Record<string, never> | ClaimedTaskBody;

/** task-status' 200 body. */
export interface ReportedBody {
  ok: true;
  id: number;
  status: TaskReported['status'];
}

/** A report task-status would have refused: its error body, and the HTTP status it would have come with. */
export interface RefusedReportBody extends ErrorBody {
  ok: false;
  http_status: number;
}

/** The body of task-statuses: one result per report in order; `tasks` when the request asked for `next`. */
export interface StatusReportsBody {
  results: (ReportedBody | RefusedReportBody)[];
  tasks?: ClaimedTaskBody[];
}

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
    const command: TaskClaimCommand = { tokenId: holder.tokenId, phoneId: holder.phoneId ?? undefined };
    const [task] = await this.claimWaiting(holder, waitS, gone, stopWaiting, async () => {
      const claim = await this.dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, command);
      return claim.claimed ? { tasks: [claim.task], nextDueAt: null } : { tasks: [], nextDueAt: claim.nextDueAt };
    });
    return task ? claimedTaskBody(task) : {};
  }

  /** Claims up to `limit` due tasks at once (`pending-tasks?limit=N`), waiting for the first as `claim` does; `[]` when none came. */
  async claimMany(holder: WorkerTokenHolder, limit: number, waitS: number, gone: AbortSignal, stopWaiting: AbortSignal): Promise<{ tasks: ClaimedTaskBody[] }> {
    const command: TaskClaimBatchCommand = { tokenId: holder.tokenId, phoneId: holder.phoneId ?? undefined, limit };
    const tasks = await this.claimWaiting(holder, waitS, gone, stopWaiting, () => this.dispatch.send<TaskClaimBatch>(Patterns.dispatch.taskClaimBatch, command));
    return { tasks: tasks.map(claimedTaskBody) };
  }

  private async claimWaiting(holder: WorkerTokenHolder, waitS: number, gone: AbortSignal, stopWaiting: AbortSignal, claimNow: () => Promise<TaskClaimBatch>): Promise<ClaimedTask[]> {
    const deadline = Date.now() + waitS * 1000;
    for (;;) {
      const waiter = this.signals.register(holder.phoneId);
      try {
        const claim = await claimNow();
        if (claim.tasks.length > 0) {
          if (gone.aborted) return this.release(holder, claim.tasks);
          return claim.tasks;
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0 || gone.aborted || stopWaiting.aborted) return [];
        const untilDue = claim.nextDueAt === null ? remaining : Date.parse(claim.nextDueAt) - Date.now();
        await waiter.wait(Math.min(remaining, Math.max(0, untilDue)), gone, stopWaiting);
        if (stopWaiting.aborted) return [];
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
      ...(report.reason === undefined ? {} : { reason: report.reason }),
      ...(report.segments === undefined ? {} : { segments: report.segments }),
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

  /**
   * Records many outcomes of one worker in one message to dispatch, each answered as task-status
   * would answer it alone (a report the gateway refuses is answered in place, with the status it
   * would have had). With `next`, it then claims up to that many tasks for the same token, without
   * waiting, as `report` claims its next one: whatever the claim meets, the reports stand (`[]`).
   */
  async reportMany(holder: WorkerTokenHolder, request: StatusReports, gone: AbortSignal, stopWaiting: AbortSignal): Promise<StatusReportsBody> {
    const valid = request.reports.filter((report): report is StatusReportItem => !(report instanceof Error));
    const command: TaskReportBatchCommand = {
      tokenId: holder.tokenId,
      // A report is contact from the phone the token is bound to (it keeps the phone online).
      ...(holder.phoneId === null ? {} : { phoneId: holder.phoneId }),
      reports: valid.map((report) => ({
        id: report.id,
        status: report.status,
        ...(report.error === undefined ? {} : { error: report.error }),
        ...(report.retry === undefined ? {} : { retry: report.retry }),
        ...(report.reason === undefined ? {} : { reason: report.reason }),
        ...(report.segments === undefined ? {} : { segments: report.segments }),
      })),
    };
    const answered = valid.length === 0 ? [] : (await this.dispatch.send<BatchAnswer<TaskReported>>(Patterns.dispatch.taskReportBatch, command)).results;
    let next = 0;
    const results = request.reports.map((report): ReportedBody | RefusedReportBody => {
      if (report instanceof Error) return refusedReport(report.toBody());
      const outcome = answered[next++];
      if (!outcome) return refusedReport({ error: 'internal_error', detail: 'the report was not answered' });
      return outcome.ok ? { ok: true, id: outcome.value.id, status: outcome.value.status } : refusedReport(outcome.error);
    });
    if (request.next === undefined) return { results };
    const claimed = await this.claimMany(holder, request.next, 0, gone, stopWaiting).catch((error: Error) => {
      this.logger.warn(`next tasks after ${results.length} reports not claimed: ${error.message}`);
      return { tasks: [] };
    });
    return { results, tasks: claimed.tasks };
  }

  private async release(holder: WorkerTokenHolder, tasks: ClaimedTask[]): Promise<[]> {
    await Promise.all(
      tasks.map(async (task) => {
        const command: TaskReleaseCommand = { tokenId: holder.tokenId, id: task.id };
        // If this is lost the lease brings the task back anyway, one attempt poorer.
        await this.dispatch.send(Patterns.dispatch.taskRelease, command).catch((error: Error) => this.logger.warn(`claim of task ${task.id} not released: ${error.message}`));
      }),
    );
    return [];
  }
}

/**
 * The pending-tasks answer of DESIGN.md §3, plus, only where the phone's owner set them, `per_minute`,
 * `jitter` and `sim`, and with a pace `parts` (the SMS parts the message costs, what the pace
 * counts; absent: 1), and `encrypted` for a sealed message: a task whose client and phone set none
 * of them answers exactly §3's fields.
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
    ...(task.parts === 1 || (task.perMinute === null && task.jitter === null) ? {} : { parts: task.parts }),
    ...(task.perMinute === null ? {} : { per_minute: task.perMinute }),
    ...(task.jitter === null ? {} : { jitter: task.jitter }),
    ...(task.sim === null ? {} : { sim: task.sim }),
    ...(task.encrypted ? { encrypted: true } : {}),
  };
}


function refusedReport(error: ErrorBody): RefusedReportBody {
  return { ok: false, error: error.error, detail: error.detail, http_status: ERROR_STATUS[error.error] };
}
