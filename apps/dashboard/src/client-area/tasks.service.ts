import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  InvalidRequestError,
  Patterns,
  TASK_STATUSES,
  UnavailableError,
  type TaskCreated,
  type TaskGetQuery,
  type TaskListQuery,
  type TaskPage,
  type TaskResendCommand,
  type TaskSettlement,
  type TaskStatus,
  type TaskView,
} from '@smsq/contracts';
import type { Page, TaskRow } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import { taskRowOf } from '../shared/views.js';
import { instantsOfLocalDays } from './local-days.js';

export const TASK_PAGE_SIZE = 50;

/** How long a resend may take; dispatch refuses to act after the deadline, a second earlier. */
const RESEND_TIMEOUT_MS = 9_000;
const RESEND_DEADLINE_MS = 8_000;

export interface TaskFilter {
  status?: string;
  from?: string;
  to?: string;
  recipient?: string;
  page: number;
}

@Injectable()
export class TasksService {
  private readonly logger = new Logger(TasksService.name);

  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  /** Newest first; `from`/`to` are days in the client's own time zone. */
  async list(clientId: number, filter: TaskFilter): Promise<Page<TaskRow>> {
    if (filter.status !== undefined && !(TASK_STATUSES as readonly string[]).includes(filter.status)) {
      throw new InvalidRequestError(`status must be one of ${TASK_STATUSES.join(', ')}`);
    }
    const timeZone = await this.directory.timeZoneOf(clientId);
    const range = instantsOfLocalDays(filter, timeZone);
    const query: TaskListQuery = {
      clientId,
      status: filter.status as TaskStatus | undefined,
      from: range.from,
      to: range.to,
      recipient: filter.recipient,
      page: filter.page,
      pageSize: TASK_PAGE_SIZE,
    };
    const page = await this.dispatch.send<TaskPage>(Patterns.dispatch.taskList, withoutUndefined(query));
    return { items: page.items.map((task) => taskRowOf(task, timeZone)), total: page.total, page: page.page, pageSize: page.pageSize };
  }

  /** Dispatch answers not_found for another client's task, exactly as for an unknown one. */
  async get(clientId: number, id: number): Promise<TaskRow> {
    const query: TaskGetQuery = { clientId, id };
    const [task, timeZone] = await Promise.all([this.dispatch.send<TaskView>(Patterns.dispatch.taskGet, query), this.directory.timeZoneOf(clientId)]);
    return taskRowOf(task, timeZone);
  }

  /**
   * A failed task queued again as a new one (one new credit). When dispatch's answer does not
   * come in time, the outcome is asked for by its task key, so the user is not told "error"
   * about a task that exists.
   */
  async resend(clientId: number, id: number): Promise<TaskRow> {
    const timeZone = await this.directory.timeZoneOf(clientId);
    const command: TaskResendCommand = { clientId, id, taskKey: randomUUID(), deadline: new Date(Date.now() + RESEND_DEADLINE_MS).toISOString() };
    try {
      const created = await this.dispatch.send<TaskCreated>(Patterns.dispatch.taskResend, command, { timeoutMs: RESEND_TIMEOUT_MS });
      return taskRowOf(created.task, timeZone);
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
      return taskRowOf(await this.settle(command.taskKey), timeZone);
    }
  }

  private async settle(taskKey: string): Promise<TaskView> {
    let settlement: TaskSettlement;
    try {
      settlement = await this.dispatch.send<TaskSettlement>(Patterns.dispatch.taskSettle, { taskKey });
    } catch {
      this.logger.warn(`resend ${taskKey}: outcome unknown`);
      throw new UnavailableError('the resend may or may not have been queued; look at the task list before trying again');
    }
    if (settlement.outcome === 'created') return settlement.task;
    throw new UnavailableError('the task was not resent and nothing was charged; retry later');
  }
}

/** Optional fields are left out rather than sent as undefined (the broker's JSON drops them anyway). */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
