import { Inject, Injectable } from '@nestjs/common';
import {
  countSegments,
  DomainError,
  domainErrorFrom,
  Patterns,
  RecipientOptedOutError,
  type CreatedTaskBody,
  type OptOutCheckQuery,
  type CreateTasksBody,
  type RefusedItemBody,
  type TaskCancelCommand,
  type TasksChecked,
  type TaskFeed,
  type TaskFeedQuery,
  type TaskGetQuery,
  type TaskView,
  taskBody,
  type TaskBody,
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { IdempotencyService, itemKeyOf } from '../idempotency/idempotency.service.js';
import { storedIdFromPath } from '../identity/stored-id.js';
import { cursorAfter, parseTaskListRequest } from './task-list-request.js';
import { TemplatesRepository } from '../templates/templates.repository.js';
import { type CreateTasksItem, parseCreateTaskRequest, parseCreateTasksRequest, refuseLapsedExpiry, type RequestContext, TaskCreator, templateIdOf } from '@smsq/task-intake';
import { parseIdempotencyKey } from '../idempotency/idempotency-key.js';

/** Whose tasks these are: an API key's client, or a client signed in to the dashboard. */
export type TaskOwner = Pick<ApiKeyOwner, 'clientId' | 'timezone'>;

/** How many items of an abandoned create-tasks are settled at once when a repeat recovers it. */
const RECOVERY_CONCURRENCY = 20;

@Injectable()
export class ClientTasksService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly idempotency: IdempotencyService,
    private readonly creator: TaskCreator,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    private readonly templates: TemplatesRepository,
  ) {}

  async create(owner: TaskOwner, body: unknown, idempotencyHeader: string | string[] | undefined): Promise<CreatedTaskBody> {
    const request = parseCreateTaskRequest(body, await this.requestContext(owner, [body]));
    const idempotencyKey = parseIdempotencyKey(idempotencyHeader);
    return this.idempotency.run(owner.clientId, idempotencyKey, body, {
      run: (taskKey) => this.creator.queue(owner.clientId, request, taskKey),
      recover: (taskKey) => this.creator.recoverAbandoned(owner.clientId, taskKey),
    });
  }

  /**
   * create-tasks: each item is queued exactly as create-task would queue it (together they ride
   * the same batches), and answered in place; an item refused costs nothing. An Idempotency-Key
   * covers the whole request.
   */
  async createMany(owner: TaskOwner, body: unknown, idempotencyHeader: string | string[] | undefined): Promise<CreateTasksBody> {
    const items = parseCreateTasksRequest(body, await this.requestContext(owner, tasksOf(body)));
    const idempotencyKey = parseIdempotencyKey(idempotencyHeader);
    return this.idempotency.run(
      owner.clientId,
      idempotencyKey,
      body,
      {
        run: (attemptKey) => this.queueAll(owner.clientId, items, attemptKey),
        recover: (attemptKey) => this.recoverAll(owner.clientId, items, attemptKey),
        refresh: (answer, attemptKey) => this.recoverUnavailable(owner.clientId, answer, attemptKey),
      },
      200,
    );
  }

  /** create-tasks' items as its rules read them, the opt-out list included, queuing nothing: the dashboard's preview before it sends. */
  async check(owner: TaskOwner, body: unknown): Promise<TasksChecked> {
    const items = parseCreateTasksRequest(body, await this.requestContext(owner, tasksOf(body)));
    const query: OptOutCheckQuery = { clientId: owner.clientId, numbers: items.flatMap((item) => (item.ok ? [item.request.recipient] : [])) };
    const optedOut = new Set(query.numbers.length === 0 ? [] : await this.dispatch.send<string[]>(Patterns.dispatch.optOutCheck, query));
    return {
      results: items.map((item) => {
        if (!item.ok) return refusedItem(item.error);
        try {
          refuseLapsedExpiry(item.request, new Date());
          if (optedOut.has(item.request.recipient)) throw new RecipientOptedOutError(item.request.recipient);
        } catch (error) {
          return refusedItem(error);
        }
        return { ok: true, recipient: item.request.recipient, message: item.request.message, scheduled_at: item.request.schedule.local, segments: item.request.encrypted ? null : countSegments(item.request.message) };
      }),
    };
  }

  async get(owner: ApiKeyOwner, rawId: string): Promise<TaskBody> {
    const query: TaskGetQuery = { clientId: owner.clientId, id: storedIdFromPath(rawId, 'task') };
    return taskBody(await this.dispatch.send<TaskView>(Patterns.dispatch.taskGet, query));
  }

  /** The client's tasks, newest first, a page at a time; `next_cursor` asks for the page after. */
  async list(owner: ApiKeyOwner, rawQuery: Record<string, unknown>): Promise<{ items: TaskBody[]; next_cursor: string | null }> {
    const request = parseTaskListRequest(rawQuery, owner.timezone);
    const query: TaskFeedQuery = {
      clientId: owner.clientId,
      limit: request.limit,
      ...(request.status ? { status: request.status } : {}),
      ...(request.since ? { since: request.since.toISOString() } : {}),
      ...(request.until ? { until: request.until.toISOString() } : {}),
      ...(request.after ? { afterCreatedAt: request.after.createdAt, afterId: request.after.id } : {}),
    };
    const feed = await this.dispatch.send<TaskFeed>(Patterns.dispatch.taskFeed, query);
    const last = feed.items.at(-1);
    return { items: feed.items.map(taskBody), next_cursor: feed.hasMore && last ? cursorAfter(last) : null };
  }

  /** Takes back a task no worker has been handed: it ends failed (`cancelled`) and its credit comes back. */
  async cancel(owner: ApiKeyOwner, rawId: string): Promise<TaskBody> {
    const command: TaskCancelCommand = { clientId: owner.clientId, id: storedIdFromPath(rawId, 'task') };
    return taskBody(await this.dispatch.send<TaskView>(Patterns.dispatch.taskCancel, command));
  }

  /**
   * An item whose outcome could not be learnt is answered `unavailable` in place: its task key
   * was recorded as abandoned, and the relay makes "not queued" true. The other items' answers
   * stand, so the client resends only that one.
   */
  private async queueAll(clientId: number, items: CreateTasksItem[], attemptKey: string): Promise<CreateTasksBody> {
    const outcomes = await Promise.allSettled(
      items.map((item, index) => (item.ok ? this.creator.queue(clientId, item.request, itemKeyOf(attemptKey, index)) : Promise.reject(item.error))),
    );
    return { results: outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : refusedItem(outcome.reason))) };
  }

  /**
   * A create-tasks whose gateway died mid-request, settled item by item as create-task's would
   * be: untouched tasks are failed and refunded. When none was under way the repeat queues them
   * all afresh (undefined); otherwise the tasks under way are the answer and the rest were not queued.
   */
  private async recoverAll(clientId: number, items: CreateTasksItem[], attemptKey: string): Promise<CreateTasksBody | undefined> {
    const recovered: Array<CreatedTaskBody | undefined> = [];
    for (let start = 0; start < items.length; start += RECOVERY_CONCURRENCY) {
      const slice = items.slice(start, start + RECOVERY_CONCURRENCY);
      recovered.push(...(await Promise.all(slice.map((item, offset) => (item.ok ? this.creator.recoverAbandoned(clientId, itemKeyOf(attemptKey, start + offset)) : undefined)))));
    }
    if (recovered.every((answer) => answer === undefined)) return undefined;
    const notQueued = new DomainError('unavailable', 'this task was not queued and nothing was charged; send it again');
    return { results: items.map((item, index) => recovered[index] ?? refusedItem(item.ok ? notQueued : item.error)) };
  }

  /**
   * A repeat of a create-tasks whose answer had items `unavailable`: each is settled as an
   * abandoned create-task is, so one a worker took before the abandoned-creates relay reached it
   * becomes its task in the answer (as create-task's repeat answers 201), and the others stay
   * `unavailable`, now certainly not queued. Undefined when nothing changed.
   */
  private async recoverUnavailable(clientId: number, answer: CreateTasksBody, attemptKey: string): Promise<CreateTasksBody | undefined> {
    const unavailable = answer.results.flatMap((result, index) => ('error' in result && result.error === 'unavailable' ? [index] : []));
    const recovered = new Map<number, CreatedTaskBody>();
    for (let start = 0; start < unavailable.length; start += RECOVERY_CONCURRENCY) {
      const slice = unavailable.slice(start, start + RECOVERY_CONCURRENCY);
      const answers = await Promise.all(slice.map((index) => this.creator.recoverAbandoned(clientId, itemKeyOf(attemptKey, index))));
      answers.forEach((task, offset) => task && recovered.set(slice[offset]!, task));
    }
    if (recovered.size === 0) return undefined;
    return { results: answer.results.map((result, index) => recovered.get(index) ?? result) };
  }

  /** The rules' context, with the client's templates that `bodies` name (read only when one names any). */
  private async requestContext(owner: TaskOwner, bodies: readonly unknown[]): Promise<RequestContext> {
    const ids = [...new Set(bodies.map(templateIdOf).filter((id) => id !== undefined))];
    const templates = ids.length === 0 ? new Map() : await this.templates.byIds(owner.clientId, ids);
    return { profile: this.config.profile, defaultRegion: this.config.defaultRegion, timeZone: owner.timezone, now: new Date(), templates };
  }
}

/** create-tasks' items, when the body has a list of them; its rules refuse anything else. */
function tasksOf(body: unknown): unknown[] {
  const tasks = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['tasks'] : undefined;
  return Array.isArray(tasks) ? tasks : [];
}

function refusedItem(error: unknown): RefusedItemBody {
  const body = domainErrorFrom(error)?.toBody() ?? { error: 'internal_error', detail: 'the task could not be handled' };
  return { ok: false, error: body.error, detail: body.detail };
}

