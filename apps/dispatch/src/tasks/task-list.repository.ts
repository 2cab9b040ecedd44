import { Injectable } from '@nestjs/common';
import type { TaskStatus } from '@smsq/contracts';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { Prisma, Task } from '../generated/prisma/client.js';

export interface TaskFilter {
  clientId?: number;
  status?: TaskStatus;
  /** Created at or after. */
  from?: Date;
  /** Created before. */
  to?: Date;
  /** Digits (and a leading `+`) only, so it carries no LIKE wildcard. */
  recipientPart?: string;
}

@Injectable()
export class TaskListRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /** Newest first, read straight from the (client_id, created_at, id) or (created_at, id) index. */
  async page(filter: TaskFilter, skip: number, take: number): Promise<{ tasks: Task[]; total: number }> {
    const where = whereOf(filter);
    const [tasks, total] = await Promise.all([
      this.db.task.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      this.db.task.count({ where }),
    ]);
    return { tasks, total };
  }

  /** Newest first after the task `after` (by creation, then id), from the same indexes; `take` at most. */
  async after(filter: TaskFilter, after: { createdAt: Date; id: number } | undefined, take: number): Promise<Task[]> {
    // The redundant `lte` bounds the index scan, so a deep page costs what the first one does.
    const older = after
      ? [{ createdAt: { lte: after.createdAt } }, { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }]
      : [];
    return this.db.task.findMany({ where: { AND: [whereOf(filter), ...older] }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
  }

  async count(filter: TaskFilter): Promise<number> {
    return this.db.task.count({ where: whereOf(filter) });
  }
}

function whereOf(filter: TaskFilter): Prisma.TaskWhereInput {
  return {
    ...(filter.clientId !== undefined ? { clientId: filter.clientId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
    ...(filter.recipientPart ? { recipient: { contains: filter.recipientPart } } : {}),
  };
}
