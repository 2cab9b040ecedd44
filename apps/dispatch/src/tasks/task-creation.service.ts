import { Injectable, Logger } from '@nestjs/common';
import {
  ConflictError,
  DomainError,
  UnavailableError,
  type DebitResult,
  type TaskCreateCommand,
  type TaskCreated,
  type TaskSettlement,
  type TaskView,
} from '@smsq/contracts';
import { BillingClient } from '../billing/billing.client.js';
import { DueSignals } from '../due-signals/due-signals.js';
import type { RouteRequest } from '../routing/route-request.js';
import { RoutingService } from '../routing/routing.service.js';
import type { Task } from '../generated/prisma/client.js';
import { TaskSettlementService } from './task-settlement.service.js';
import { TasksRepository } from './tasks.repository.js';
import { toTaskView } from './task-view.js';

const VOIDED_DETAIL = 'this request was abandoned before its task was stored; send it again';

/**
 * The longest a pending-tasks long poll waits (DESIGN §3: `wait` above 30 counts as 30). A poll
 * sleeps until the earliest due task it knows of, so a task due sooner than that wakes it too.
 */
const LONGEST_POLL_MS = 30_000;

/**
 * Queues one SMS: the route, the debit and the stored task are one outcome. A key that cannot get
 * its task is voided, so billing refunds its debit (now, or by its settlement sweep) and a late
 * retry can never create the task behind the caller's back.
 */
@Injectable()
export class TaskCreationService {
  private readonly logger = new Logger(TaskCreationService.name);

  constructor(
    private readonly tasks: TasksRepository,
    private readonly routing: RoutingService,
    private readonly billing: BillingClient,
    private readonly settlement: TaskSettlementService,
    private readonly signals: DueSignals,
  ) {}

  async create(command: TaskCreateCommand): Promise<TaskCreated> {
    // A broker delivery that arrives after the caller gave up must not act.
    if (Date.parse(command.deadline) <= Date.now()) throw new UnavailableError('the request expired before it was handled');

    const key = await this.tasks.keyState(command.taskKey);
    const existing = key.stored ? await this.tasks.findByKey(command.taskKey) : null;
    if (existing) return this.answerRepeat(command, existing);
    if (key.voided) throw new UnavailableError(VOIDED_DETAIL);

    const route: RouteRequest = { clientId: command.clientId, requestedPhoneId: command.requestedPhoneId };
    // The contract checks phone / gateway before credits, so no debit is taken for a task with nowhere to go.
    await this.routing.choose(route);
    const debit = await this.debit(command);
    const task = await this.store(command, route).catch((error: unknown) => this.undoDebit(command.taskKey, error));
    if (Date.parse(command.scheduledAt) <= Date.now() + LONGEST_POLL_MS) void this.signals.announce([task.phoneId]);
    return { task, creditsRemaining: debit.creditsRemaining };
  }

  /** A retry or redelivery: billing's debit is idempotent per key, so repeating it charges nothing and tells the balance. */
  private async answerRepeat(command: TaskCreateCommand, task: Task): Promise<TaskCreated> {
    if (task.clientId !== command.clientId) throw new ConflictError('this task key belongs to another request');
    const debit = await this.billing.debit(debitOf(command));
    return { task: toTaskView(task), creditsRemaining: debit.creditsRemaining };
  }

  private async debit(command: TaskCreateCommand): Promise<DebitResult> {
    try {
      return await this.billing.debit(debitOf(command));
    } catch (error) {
      if (error instanceof DomainError && error.code !== 'unavailable') throw error;
      // Billing may have taken the credit though its answer never came; a voided key is refunded by its sweep.
      await this.voidKey(command.taskKey);
      throw new UnavailableError('the billing service did not answer; retry later');
    }
  }

  private store(command: TaskCreateCommand, route: RouteRequest): Promise<TaskView> {
    return this.tasks.underKeyLock(command.taskKey, async (tx) => {
      const key = await this.tasks.keyState(command.taskKey, tx);
      if (key.voided) throw new UnavailableError(VOIDED_DETAIL);
      // A redelivery of this same create may have stored the task while this one waited for billing.
      const stored = key.stored ? await this.tasks.findByKey(command.taskKey, tx) : null;
      if (stored) return toTaskView(stored);
      const phoneId = await this.routing.choose(route, tx);
      const task = await this.tasks.insert(
        {
          taskKey: command.taskKey,
          clientId: command.clientId,
          phoneId,
          recipient: command.recipient,
          message: command.message,
          scheduledAt: new Date(command.scheduledAt),
          scheduledLocal: command.scheduledLocal,
        },
        tx,
      );
      return toTaskView(task);
    });
  }

  /** The debit was taken but the task could not be stored: void the key, give the credit back, report the failure. */
  private async undoDebit(taskKey: string, error: unknown): Promise<TaskView> {
    const settlement = await this.voidKey(taskKey);
    // The insert committed though its answer was lost, or a redelivery stored it: the task exists after all.
    if (settlement?.outcome === 'created') return settlement.task;
    if (settlement?.outcome === 'voided') this.requestRefund(taskKey);
    if (error instanceof DomainError) throw error;
    this.logger.error(`task ${taskKey} was debited but not stored: ${describe(error)}`);
    throw new UnavailableError();
  }

  /** Settles the key; if even that fails, the key stays open and billing's settlement sweep decides it later. */
  private async voidKey(taskKey: string): Promise<TaskSettlement | undefined> {
    try {
      return await this.settlement.settle(taskKey);
    } catch (error) {
      this.logger.error(`task key ${taskKey} could not be voided: ${describe(error)}`);
      return undefined;
    }
  }

  private requestRefund(taskKey: string): void {
    // Best effort: if this is lost, billing's settlement sweep finds the key voided and refunds it anyway.
    void this.billing.refund({ taskKey, reason: 'task_not_created' }).catch((error: unknown) => {
      this.logger.warn(`refund of voided task key ${taskKey} not confirmed: ${describe(error)}`);
    });
  }
}

function debitOf(command: TaskCreateCommand) {
  return { taskKey: command.taskKey, clientId: command.clientId, deadline: command.deadline };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
