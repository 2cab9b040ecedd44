import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError,
  NotFoundError,
  Patterns,
  UnavailableError,
  type AccountView,
  type RefundCommand,
  type TaskCreateCommand,
  type TaskCreated,
  type TaskGetQuery,
  type TaskSettleCommand,
  type TaskSettlement,
  type TaskView,
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { IdempotencyService, UndecidedOutcomeError } from '../idempotency/idempotency.service.js';
import { AbandonedCreatesRepository } from './abandoned-creates.repository.js';
import { parseCreateTaskRequest, parseIdempotencyKey, type CreateTaskRequest } from './create-task-request.js';
import { createdTaskBody, taskBody, type CreatedTaskBody } from './task-answers.js';

/** Room for dispatch to answer before the gateway stops waiting; work past the deadline is refused. */
const DEADLINE_MARGIN_MS = 1_000;

/**
 * The answers of dispatch that leave a create's outcome open: it may have stored the task before
 * failing. Every other contract error (`no_active_gateway` included) is a refusal of a task it did not store.
 */
const OPEN_OUTCOME_CODES: ReadonlySet<string> = new Set(['unavailable', 'internal_error']);

@Injectable()
export class ClientTasksService {
  private readonly logger = new Logger(ClientTasksService.name);

  constructor(
    private readonly config: GatewayConfig,
    private readonly idempotency: IdempotencyService,
    private readonly abandoned: AbandonedCreatesRepository,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('billing')) private readonly billing: ServiceClient,
  ) {}

  async create(owner: ApiKeyOwner, body: unknown, idempotencyHeader: string | string[] | undefined): Promise<CreatedTaskBody> {
    const request = parseCreateTaskRequest(body, {
      profile: this.config.profile,
      defaultRegion: this.config.defaultRegion,
      timeZone: owner.timezone,
      now: new Date(),
    });
    const idempotencyKey = parseIdempotencyKey(idempotencyHeader);
    return this.idempotency.run(owner.clientId, idempotencyKey, body, {
      run: (taskKey) => this.queue(owner.clientId, request, taskKey),
      recover: (taskKey) => this.recoverAbandoned(owner.clientId, taskKey),
    });
  }

  async get(owner: ApiKeyOwner, rawId: string): Promise<ReturnType<typeof taskBody>> {
    const id = /^\d{1,10}$/.test(rawId) ? Number(rawId) : Number.NaN;
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new NotFoundError('task');
    const query: TaskGetQuery = { clientId: owner.clientId, id };
    return taskBody(await this.dispatch.send<TaskView>(Patterns.dispatch.taskGet, query));
  }

  /**
   * Dispatch debits and stores the task as one outcome. When its answer does not come, the
   * outcome is settled explicitly so the client is never told "error" about a task that exists.
   */
  private async queue(clientId: number, request: CreateTaskRequest, taskKey: string): Promise<CreatedTaskBody> {
    const command: TaskCreateCommand = {
      taskKey,
      clientId,
      recipient: request.recipient,
      message: request.message,
      requestedPhoneId: request.requestedPhoneId,
      scheduledAt: request.schedule.at.toISOString(),
      scheduledLocal: request.schedule.local,
      deadline: new Date(Date.now() + this.config.createTimeoutMs - DEADLINE_MARGIN_MS).toISOString(),
    };
    try {
      const created = await this.dispatch.send<TaskCreated>(Patterns.dispatch.taskCreate, command, { timeoutMs: this.config.createTimeoutMs });
      return createdTaskBody(created, this.config.profile);
    } catch (error) {
      if (error instanceof DomainError && !OPEN_OUTCOME_CODES.has(error.code)) throw error;
      return createdTaskBody(await this.settle(clientId, taskKey), this.config.profile);
    }
  }

  /**
   * An earlier attempt under the same Idempotency-Key whose outcome nobody learnt (its gateway
   * died, or answered 503 without knowing): settled as an abandoned create, so a stored task that
   * no worker touched yet is failed and refunded and the repeat queues afresh, while one already
   * under way becomes the answer. Either way the key ends with exactly one live task.
   */
  private async recoverAbandoned(clientId: number, taskKey: string): Promise<CreatedTaskBody | undefined> {
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
        // Without the balance the 201 cannot be given; the 503 is made true by abandoning the untouched task.
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
