import { Injectable } from '@nestjs/common';
import type { TaskStatus } from '@smsq/contracts';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma, type Task } from '../generated/prisma/client.js';
import { TASK_COLUMNS } from './task-columns.js';

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
    const [tasks, total] = await Promise.all([
      this.db.sql.$queryRaw<Task[]>`
        SELECT ${TASK_COLUMNS} FROM "dispatch"."tasks" t
         WHERE ${conditionsOf(filter)}
         ORDER BY t.created_at DESC, t.id DESC
        OFFSET ${skip} LIMIT ${take}`,
      this.count(filter),
    ]);
    return { tasks, total };
  }

  /** Newest first after the task `after` (by creation, then id), from the same indexes; `take` at most. */
  async after(filter: TaskFilter, after: { createdAt: Date; id: number } | undefined, take: number): Promise<Task[]> {
    // The redundant `<=` bounds the index scan, so a deep page costs what the first one does.
    const older = after
      ? Prisma.sql`AND t.created_at <= ${after.createdAt} AND (t.created_at < ${after.createdAt} OR (t.created_at = ${after.createdAt} AND t.id < ${after.id}))`
      : Prisma.empty;
    return this.db.sql.$queryRaw<Task[]>`
      SELECT ${TASK_COLUMNS} FROM "dispatch"."tasks" t
       WHERE ${conditionsOf(filter)} ${older}
       ORDER BY t.created_at DESC, t.id DESC
       LIMIT ${take}`;
  }

  async count(filter: TaskFilter): Promise<number> {
    const [row] = await this.db.sql.$queryRaw<Array<{ total: number }>>`SELECT count(*)::int AS total FROM "dispatch"."tasks" t WHERE ${conditionsOf(filter)}`;
    return row!.total;
  }
}

/** The filter on the rows `t` of a page, in SQL. */
function conditionsOf(filter: TaskFilter): Prisma.Sql {
  const conditions = [Prisma.sql`TRUE`];
  if (filter.clientId !== undefined) conditions.push(Prisma.sql`t.client_id = ${filter.clientId}`);
  if (filter.status) conditions.push(Prisma.sql`t.status = ${filter.status}::"dispatch"."task_status"`);
  if (filter.from) conditions.push(Prisma.sql`t.created_at >= ${filter.from}`);
  if (filter.to) conditions.push(Prisma.sql`t.created_at < ${filter.to}`);
  if (filter.recipientPart) conditions.push(Prisma.sql`t.recipient LIKE ${`%${filter.recipientPart}%`}`);
  return Prisma.join(conditions, ' AND ');
}
