import { Injectable } from '@nestjs/common';
import { InvalidRequestError, type TaskFeed, type TaskFeedQuery, type TaskListQuery, type TaskPage } from '@smsq/contracts';
import { isStoredId } from '../database/stored-id.js';
import { TaskListRepository, type TaskFilter } from './task-list.repository.js';
import { toTaskView } from './task-view.js';

/** Beyond this offset Postgres would only walk the index for nothing: such a page is empty. */
const MAX_OFFSET = 2_147_483_647;

@Injectable()
export class TaskListService {
  constructor(private readonly tasks: TaskListRepository) {}

  /** A client's tasks (or, without clientId, everyone's for an admin), newest first. */
  async list(query: TaskListQuery): Promise<TaskPage> {
    const empty: TaskPage = { items: [], total: 0, page: query.page, pageSize: query.pageSize };
    // A client id no row can have owns no task.
    if (query.clientId !== undefined && !isStoredId(query.clientId)) return empty;
    const recipientPart = query.recipient === undefined ? undefined : recipientPartOf(query.recipient);
    if (recipientPart === null) return empty;

    const filter: TaskFilter = {
      clientId: query.clientId,
      status: query.status,
      from: instantOf(query.from, 'from'),
      to: instantOf(query.to, 'to'),
      recipientPart,
    };
    const skip = (query.page - 1) * query.pageSize;
    if (skip > MAX_OFFSET) return { ...empty, total: await this.tasks.count(filter) };
    const { tasks, total } = await this.tasks.page(filter, skip, query.pageSize);
    return { items: tasks.map(toTaskView), total, page: query.page, pageSize: query.pageSize };
  }

  /** A client's tasks page after page, newest first, each page starting after the last task of the one before. */
  async feed(query: TaskFeedQuery): Promise<TaskFeed> {
    if (!isStoredId(query.clientId)) return { items: [], hasMore: false };
    const filter: TaskFilter = { clientId: query.clientId, status: query.status, from: instantOf(query.since, 'since'), to: instantOf(query.until, 'until') };
    const afterCreatedAt = instantOf(query.afterCreatedAt, 'afterCreatedAt');
    const after = afterCreatedAt && query.afterId !== undefined ? { createdAt: afterCreatedAt, id: query.afterId } : undefined;
    const found = await this.tasks.after(filter, after, query.limit + 1);
    return { items: found.slice(0, query.limit).map(toTaskView), hasMore: found.length > query.limit };
  }
}

/**
 * Recipients are stored in E.164, so the search is read the way a number is typed (spaces, dashes,
 * dots, slashes and brackets dropped). What is then not `+digits` matches no recipient: null.
 * An empty search filters nothing.
 */
export function recipientPartOf(search: string): string | undefined | null {
  const part = search.replace(/[\s\-./()[\]]/g, '');
  if (part === '') return undefined;
  return /^\+?\d+$/.test(part) ? part : null;
}

/** An ISO 8601 instant; a date-time without an offset is read as UTC, a bare date as its UTC midnight. */
export function instantOf(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const hasOffset = !value.includes('T') || /(z|[+-]\d{2}(:?\d{2})?)$/i.test(value);
  const millis = Date.parse(hasOffset ? value : `${value}Z`);
  if (Number.isNaN(millis)) throw new InvalidRequestError(`${field} is not an instant this service can read`);
  return new Date(millis);
}
