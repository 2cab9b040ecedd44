import { Injectable } from '@nestjs/common';
import { NotFoundError, type TaskGetQuery, type TaskView } from '@smsq/contracts';
import { isStoredId } from '../database/stored-id.js';
import { TasksRepository } from './tasks.repository.js';
import { toTaskView } from './task-view.js';

@Injectable()
export class TaskLookupService {
  constructor(private readonly tasks: TasksRepository) {}

  /** A client sees only its own tasks: another client's task is as unknown as a missing one. */
  async get(query: TaskGetQuery): Promise<TaskView> {
    const task = isStoredId(query.clientId) && isStoredId(query.id) ? await this.tasks.findOfClient(query.clientId, query.id) : null;
    if (!task) throw new NotFoundError('task');
    return toTaskView(task);
  }
}
