import { DomainError, InvalidRequestError, MAX_TASKS_PER_REQUEST } from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';
import { parseCreateTaskRequest, type CreateTaskRequest, type RequestContext } from './create-task-request.js';

/** One item of create-tasks: the create it asks for, or why create-task would refuse that body. */
export type CreateTasksItem = { ok: true; request: CreateTaskRequest } | { ok: false; error: DomainError };

/**
 * `{"tasks": [ <create-task bodies> ]}`: the list itself must be well formed (400 otherwise);
 * each item is checked by create-task's own rules, and an item that breaks one is refused alone.
 */
export function parseCreateTasksRequest(body: unknown, context: RequestContext): CreateTasksItem[] {
  const tasks = jsonObjectOf(body, 'a JSON object with tasks, a list of create-task bodies')['tasks'];
  if (!Array.isArray(tasks)) throw new InvalidRequestError('tasks is required and must be a list of create-task bodies');
  if (tasks.length === 0 || tasks.length > MAX_TASKS_PER_REQUEST) {
    throw new InvalidRequestError(`tasks must hold 1 to ${MAX_TASKS_PER_REQUEST} items; it holds ${tasks.length}`);
  }
  return tasks.map((task: unknown): CreateTasksItem => {
    try {
      return { ok: true, request: parseCreateTaskRequest(task, context) };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, error };
      throw error;
    }
  });
}
