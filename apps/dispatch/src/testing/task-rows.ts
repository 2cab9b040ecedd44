import { randomUUID } from 'node:crypto';
import type { DispatchDatabase } from '../database/dispatch-database.js';
import type { Task } from '../generated/prisma/client.js';

export interface TaskRow {
  phoneId: number;
  clientId?: number;
  recipient?: string;
  /** Default: a minute ago, so the task is due. */
  scheduledAt?: Date;
  createdAt?: Date;
  /** The client asked for this phone: failover leaves the task on it. */
  pinned?: boolean;
  /** A sealed message: its parts unknown (counted 1) until its worker reports them. */
  encrypted?: boolean;
}

/** A pending task stored directly, for specs about what happens to tasks after their create. */
export function insertTask(db: DispatchDatabase, row: TaskRow): Promise<Task> {
  const scheduledAt = row.scheduledAt ?? new Date(Date.now() - 60_000);
  return db.task.create({
    data: {
      taskKey: randomUUID(),
      clientId: row.clientId ?? 1,
      phoneId: row.phoneId,
      recipient: row.recipient ?? '+381601234567',
      message: 'hello',
      status: 'pending',
      scheduledAt,
      scheduledLocal: scheduledAt.toISOString().slice(0, 19).replace('T', ' '),
      pinned: row.pinned ?? false,
      ...(row.encrypted ? { encrypted: true, partsKnown: false } : {}),
      ...(row.createdAt ? { createdAt: row.createdAt } : {}),
    },
  });
}

export async function insertTasks(db: DispatchDatabase, count: number, row: (index: number) => TaskRow): Promise<Task[]> {
  const tasks: Task[] = [];
  for (let index = 0; index < count; index++) tasks.push(await insertTask(db, row(index)));
  return tasks;
}

/** Empties the dispatch schema between tests that share one database. */
export async function truncateDispatch(db: DispatchDatabase): Promise<void> {
  await db.$executeRaw`TRUNCATE "dispatch"."tasks", "dispatch"."phones", "dispatch"."voided_task_keys", "dispatch"."outbox_messages", "dispatch"."webhook_endpoints", "dispatch"."webhook_deliveries", "dispatch"."client_zones", "dispatch"."opt_outs", "dispatch"."opt_out_settings", "dispatch"."conversations", "dispatch"."sending_rules", "dispatch"."sticky_recipients", "dispatch"."phone_recipients" RESTART IDENTITY`;
}

export function secondsFromNow(seconds: number): Date {
  return new Date(Date.now() + seconds * 1_000);
}
