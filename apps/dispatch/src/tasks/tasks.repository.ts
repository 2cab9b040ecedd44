import { Injectable } from '@nestjs/common';
import { lockUntilCommit } from '../database/advisory-lock.js';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma, type Task } from '../generated/prisma/client.js';

/** A task row under the names of Prisma's `Task`, for statements written in SQL. */
const TASK_COLUMNS = Prisma.sql`id, task_key AS "taskKey", client_id AS "clientId", phone_id AS "phoneId", recipient, message, status::text AS status,
  scheduled_at AS "scheduledAt", scheduled_local AS "scheduledLocal", attempts, claimed_by_token_id AS "claimedByTokenId",
  claim_expires_at AS "claimExpiresAt", sent_at AS "sentAt", delivered_at AS "deliveredAt", failed_at AS "failedAt", error, created_at AS "createdAt"`;

export interface TaskKeyState {
  stored: boolean;
  voided: boolean;
}

export interface NewTask {
  taskKey: string;
  clientId: number;
  phoneId: number;
  recipient: string;
  message: string;
  scheduledAt: Date;
  scheduledLocal: string;
}

@Injectable()
export class TasksRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /**
   * Runs `work` in one transaction that holds the task key's lock, so that creating a task and
   * settling its key never interleave.
   */
  underKeyLock<T>(taskKey: string, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (tx) => {
      await lockUntilCommit(tx, `dispatch.task:${taskKey}`);
      return work(tx);
    });
  }

  findByKey(taskKey: string, tx?: DbTransaction): Promise<Task | null> {
    return (tx ?? this.db).task.findUnique({ where: { taskKey } });
  }

  findOfClient(clientId: number, id: number): Promise<Task | null> {
    return this.db.task.findFirst({ where: { id, clientId } });
  }

  /** Whether the key has its task and whether it was voided, in one round trip (a create asks both, twice). */
  async keyState(taskKey: string, tx?: DbTransaction): Promise<TaskKeyState> {
    const rows = await (tx ?? this.db).$queryRaw<TaskKeyState[]>`
      SELECT EXISTS (SELECT 1 FROM "dispatch"."tasks" WHERE task_key = ${taskKey}::uuid) AS stored,
             EXISTS (SELECT 1 FROM "dispatch"."voided_task_keys" WHERE task_key = ${taskKey}::uuid) AS voided`;
    return rows[0]!;
  }

  /**
   * Stores the task and records the assignment on its phone (`last_assigned_at`, which orders
   * least-recently-used routing), in one statement: the hottest of a create, in SQL because
   * Prisma's model query costs more than the statement itself (docs/performance.md).
   */
  async insert(task: NewTask, tx: DbTransaction): Promise<Task> {
    // clock_timestamp(), not now(): a transaction that waited for the pool must sort after the one it waited for.
    const rows = await tx.$queryRaw<Task[]>`
      WITH assigned AS (
        UPDATE "dispatch"."phones" SET last_assigned_at = clock_timestamp() WHERE id = ${task.phoneId} RETURNING id
      )
      INSERT INTO "dispatch"."tasks" (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local, attempts)
      SELECT ${task.taskKey}::uuid, ${task.clientId}, assigned.id, ${task.recipient}, ${task.message}, 'pending',
             ${task.scheduledAt}, ${task.scheduledLocal}, 0
        FROM assigned
      RETURNING ${TASK_COLUMNS}`;
    const stored = rows[0];
    if (!stored) throw new Error(`phone ${task.phoneId} vanished before task ${task.taskKey} was stored on it`);
    return stored;
  }

  /** A task nobody has touched yet (pending, never claimed) fails as abandoned; false if it is already under way. */
  async abandonUntouched(taskKey: string, error: string, tx: DbTransaction): Promise<boolean> {
    const changed = await tx.task.updateMany({
      where: { taskKey, status: 'pending', attempts: 0 },
      data: { status: 'failed', failedAt: new Date(), error },
    });
    return changed.count === 1;
  }

  async voidKey(taskKey: string, tx: DbTransaction): Promise<void> {
    await tx.voidedTaskKey.createMany({ data: [{ taskKey }], skipDuplicates: true });
  }
}
