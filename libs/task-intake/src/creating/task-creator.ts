import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError,
  leavesOutcomeOpen,
  Patterns,
  UnavailableError,
  type AccountView,
  type CreatedTaskBody,
  type RefundCommand,
  type TaskCreateCommand,
  type TaskCreated,
  type TaskSettleCommand,
  type TaskSettlement,
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { refuseLapsedExpiry, type CreateTaskRequest } from '../rules/create-task-request.js';
import { AbandonedCreates } from './abandoned-creates.js';
import { CreateBatcher, DEADLINE_MARGIN_MS } from './create-batcher.js';
import { createdTaskBody } from './created-task-body.js';
import { TaskIntakeSettings } from './task-intake-settings.js';
import { UndecidedOutcomeError } from './undecided-outcome.error.js';

/** What a create asks beyond its body: the SMPP service's `receipts`, to hear of the task's end. */
export interface QueueOptions {
  receipts?: boolean;
}

/**
 * Queues one checked create under its task key, for create-task and for each item of
 * create-tasks alike: dispatch debits and stores it as one outcome, and when its answer does not
 * come the outcome is settled explicitly, so a client is never told "error" about a task that exists.
 */
@Injectable()
export class TaskCreator {
  private readonly logger = new Logger(TaskCreator.name);

  constructor(
    private readonly config: TaskIntakeSettings,
    private readonly abandoned: AbandonedCreates,
    private readonly batcher: CreateBatcher,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('billing')) private readonly billing: ServiceClient,
  ) {}

  /** Throws UndecidedOutcomeError when even settling got no answer: the key is then abandoned, so "not queued" becomes true. */
  async queue(clientId: number, request: CreateTaskRequest, taskKey: string, { receipts = false }: QueueOptions = {}): Promise<CreatedTaskBody> {
    refuseLapsedExpiry(request, new Date());
    const command: TaskCreateCommand = {
      taskKey,
      clientId,
      recipient: request.recipient,
      message: request.message,
      requestedPhoneId: request.requestedPhoneId,
      scheduledAt: request.schedule.at.toISOString(),
      scheduledLocal: request.schedule.local,
      ...(request.expiresAt ? { expiresAt: request.expiresAt.toISOString() } : {}),
      // Normal is dispatch's default: a create that asks for nothing new carries nothing new.
      ...(request.priority === 'normal' ? {} : { priority: request.priority }),
      ...(receipts ? { receipts } : {}),
      ...(request.encrypted ? { encrypted: true } : {}),
      deadline: new Date(Date.now() + this.config.createTimeoutMs - DEADLINE_MARGIN_MS).toISOString(),
    };
    try {
      return createdTaskBody(await this.batcher.create(command), this.config.profile);
    } catch (error) {
      // Every contract error but the open ones (`no_active_gateway` included) refuses a task dispatch did not store.
      if (error instanceof DomainError && !leavesOutcomeOpen(error.code)) throw error;
      return createdTaskBody(await this.settle(clientId, taskKey), this.config.profile);
    }
  }

  /**
   * A create whose outcome nobody learnt (the instance running it died, or answered unavailable without knowing):
   * settled as abandoned, so a stored task no worker touched yet is failed and refunded
   * (undefined: the repeat may queue afresh), while one already under way is the answer.
   */
  async recoverAbandoned(clientId: number, taskKey: string): Promise<CreatedTaskBody | undefined> {
    const command: TaskSettleCommand = { taskKey, abandon: true };
    const settlement = await this.dispatch.send<TaskSettlement>(Patterns.dispatch.taskSettle, command);
    if (settlement.outcome === 'voided') return undefined;
    const account = await this.billing.send<AccountView>(Patterns.billing.accountShow, { clientId });
    return createdTaskBody({ task: settlement.task, creditsRemaining: account.creditsRemaining }, this.config.profile);
  }

  private async settle(clientId: number, taskKey: string): Promise<TaskCreated> {
    let settlement: TaskSettlement;
    try {
      settlement = await this.dispatch.send<TaskSettlement>(Patterns.dispatch.taskSettle, { taskKey });
    } catch {
      // Still unknown: the client is told "not queued", and the relay makes that true once dispatch is back.
      await this.recordAbandoned(taskKey, clientId);
      throw new UndecidedOutcomeError('the dispatch service did not answer; retry later');
    }
    if (settlement.outcome === 'created') {
      try {
        const account = await this.billing.send<AccountView>(Patterns.billing.accountShow, { clientId });
        return { task: settlement.task, creditsRemaining: account.creditsRemaining };
      } catch {
        // Without the balance the created answer cannot be given; "unavailable" is made true by abandoning the untouched task.
        await this.recordAbandoned(taskKey, clientId);
        throw new UndecidedOutcomeError('the billing service did not answer; retry later');
      }
    }
    const refund: RefundCommand = { taskKey, reason: 'task_not_created' };
    // Billing's own settlement refunds it anyway; this only makes the balance right sooner.
    await this.billing.send(Patterns.billing.refund, refund).catch((error: Error) => this.logger.warn(`refund of ${taskKey} deferred: ${error.message}`));
    throw new UnavailableError('the task could not be queued and nothing was charged; retry later');
  }

  private async recordAbandoned(taskKey: string, clientId: number): Promise<void> {
    await this.abandoned.record(taskKey, clientId).catch((error: Error) => this.logger.error(`abandoned create ${taskKey} not recorded: ${error.message}`));
  }
}
