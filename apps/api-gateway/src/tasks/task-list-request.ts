import { DomainError, InvalidRequestError, TASK_PAGE_DEFAULT_LIMIT, TASK_PAGE_MAX_LIMIT, TASK_STATUSES, type TaskStatus, type TaskView } from '@smsq/contracts';
import { isStoredId } from '../identity/stored-id.js';
import { parseInstant } from '@smsq/task-intake';

export interface TaskListRequest {
  status?: TaskStatus;
  since?: Date;
  until?: Date;
  limit: number;
  after?: { createdAt: string; id: number };
}

/**
 * `GET /smsapi/tasks`' query: `status`, `since` and `until` (an ISO 8601 instant with its offset,
 * or a local datetime in the client's zone, as `scheduled_at`), `limit` (1–200, 50 when absent)
 * and `cursor` (a `next_cursor` this service gave). Anything else there is refused.
 */
export function parseTaskListRequest(query: Record<string, unknown>, timeZone: string): TaskListRequest {
  const unknown = Object.keys(query).filter((name) => !['status', 'since', 'until', 'limit', 'cursor', 'api_key'].includes(name));
  if (unknown.length > 0) throw new InvalidRequestError(`unknown query parameter ${unknown[0]}`);
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw new InvalidRequestError(`${name} must be given once`);
    return value;
  };
  const status = text('status');
  if (status !== undefined && !(TASK_STATUSES as readonly string[]).includes(status)) {
    throw new InvalidRequestError(`status must be one of ${TASK_STATUSES.join(', ')}`);
  }
  const limitText = text('limit');
  const limit = limitText === undefined ? TASK_PAGE_DEFAULT_LIMIT : /^\d{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= TASK_PAGE_MAX_LIMIT)) throw new InvalidRequestError(`limit must be a whole number from 1 to ${TASK_PAGE_MAX_LIMIT}`);
  const since = text('since');
  const until = text('until');
  const cursor = text('cursor');
  return {
    ...(status ? { status: status as TaskStatus } : {}),
    ...(since ? { since: instantOf('since', since, timeZone) } : {}),
    ...(until ? { until: instantOf('until', until, timeZone) } : {}),
    limit,
    ...(cursor ? { after: readCursor(cursor) } : {}),
  };
}

function instantOf(name: string, text: string, timeZone: string): Date {
  try {
    return parseInstant(text, timeZone, 'invalid_request');
  } catch (error) {
    throw new InvalidRequestError(`${name}: ${error instanceof DomainError ? error.detail : 'not a date and time'}`);
  }
}

/** Where the page after this one starts: the last task's creation instant and id, opaque to the client. */
export function cursorAfter(task: TaskView): string {
  return Buffer.from(JSON.stringify([task.createdAt, task.id])).toString('base64url');
}

function readCursor(cursor: string): { createdAt: string; id: number } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt)) && typeof id === 'number' && isStoredId(id)) {
      return { createdAt: new Date(createdAt).toISOString(), id };
    }
  } catch {
    // Refused below, as any cursor this service did not give.
  }
  throw new InvalidRequestError('cursor is not one this service gave; start again without it');
}
