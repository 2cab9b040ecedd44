import { Injectable } from '@nestjs/common';
import { lockAllUntilCommit } from '../database/advisory-lock.js';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { Task } from '../generated/prisma/client.js';
import { lastAssignments } from '../routing/last-assignments.js';
import { recordedRouting } from '../routing/routing.repository.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { TASK_COLUMNS } from './task-columns.js';

export interface TaskKeyState {
  stored: boolean;
  voided: boolean;
}

export interface NewTask {
  taskKey: string;
  clientId: number;
  phoneId: number;
  /** The SIM routing chose (sticky, on a phone with two); null: the phone's default. */
  sim: number | null;
  /** Routed by the client's sticky mode: its recipient is kept on this phone. */
  sticky: boolean;
  highPriority: boolean;
  /** Its end is relayed to the SMPP service, which owes its client a delivery receipt. */
  receipts: boolean;
  /** SMS parts the message costs; 1 for a sealed message until its worker reports them. */
  parts: number;
  /** The message is sealed end to end. */
  encrypted: boolean;
  recipient: string;
  message: string;
  scheduledAt: Date;
  scheduledLocal: string;
  expiresAt: Date | null;
  /** The client asked for this phone: failover leaves the task on it. */
  pinned: boolean;
}

@Injectable()
export class TasksRepository {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly conditions: PhoneConditions,
  ) {}

  /**
   * Runs `work` in one transaction that holds the task key's lock, so that creating a task and
   * settling its key never interleave.
   */
  underKeyLock<T>(taskKey: string, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    return this.underKeyLocks([taskKey], work);
  }

  /** `underKeyLock` for several keys, locked in their sorted order (the order every holder of more than one keeps). */
  underKeyLocks<T>(taskKeys: readonly string[], work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    const names = [...new Set(taskKeys)].sort().map((taskKey) => `dispatch.task:${taskKey}`);
    return inTransaction(this.db, async (tx) => {
      // The work's first statements go out right behind the lock's, and run once it is held.
      const [, result] = await Promise.all([lockAllUntilCommit(tx, names), work(tx)]);
      return result;
    });
  }

  async findByKey(taskKey: string, tx?: DbTransaction): Promise<Task | null> {
    const [task] = await this.findByKeys([taskKey], tx);
    return task ?? null;
  }

  findByKeys(taskKeys: readonly string[], tx?: DbTransaction): Promise<Task[]> {
    return (tx ?? this.db.sql).$queryRaw<Task[]>`SELECT ${TASK_COLUMNS} FROM "dispatch"."tasks" t WHERE t.task_key = ANY (${[...taskKeys]}::uuid[])`;
  }

  async findOfClient(clientId: number, id: number): Promise<Task | null> {
    const [task] = await this.db.sql.$queryRaw<Task[]>`SELECT ${TASK_COLUMNS} FROM "dispatch"."tasks" t WHERE t.id = ${id} AND t.client_id = ${clientId}`;
    return task ?? null;
  }

  /** Whether each key has its task and whether it was voided, in order, in one round trip (a create asks both, twice). */
  async keyStates(taskKeys: readonly string[], tx?: DbTransaction): Promise<TaskKeyState[]> {
    return (tx ?? this.db.sql).$queryRaw<TaskKeyState[]>`
      SELECT EXISTS (SELECT 1 FROM "dispatch"."tasks" t WHERE t.task_key = k.task_key) AS stored,
             EXISTS (SELECT 1 FROM "dispatch"."voided_task_keys" v WHERE v.task_key = k.task_key) AS voided
        FROM unnest(${taskKeys}::uuid[]) WITH ORDINALITY AS k(task_key, position)
       ORDER BY k.position`;
  }

  /**
   * Stores the tasks, in order, and records the assignments on their phones (`last_assigned_at`,
   * which orders least-recently-used routing: a phone's latest task sorts last), in one
   * statement: the hottest of a create, in SQL because Prisma's model queries cost more than the
   * statement itself (docs/performance.md). The phones are locked by the routing of the same transaction.
   */
  async insertMany(tasks: readonly NewTask[], tx: DbTransaction): Promise<Task[]> {
    const assigned = lastAssignments(tasks.map((task) => task.phoneId));
    // clock_timestamp(), not now(): a transaction that waited for the pool must sort after the one it waited for.
    // Read once: per row, the clock's own steps would reorder the batch's assignments.
    const rows = await tx.$queryRaw<Task[]>`
      WITH ${recordedRouting(this.conditions, tasks)},
      clock AS MATERIALIZED (SELECT clock_timestamp() AS now), assigned AS (
        UPDATE "dispatch"."phones" p SET last_assigned_at = clock.now + a.position * interval '1 microsecond'
          FROM clock, ${assigned.rows}
         WHERE p.id = a.id
      )
      INSERT INTO "dispatch"."tasks" AS t (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local, expires_at, attempts, pinned,
                                           high_priority, parts, sim, receipts, encrypted, parts_known)
      SELECT n.task_key, n.client_id, n.phone_id, n.recipient, n.message, 'pending', n.scheduled_at, n.scheduled_local, n.expires_at, 0, n.pinned,
             n.high_priority, n.parts, n.sim, n.receipts, n.encrypted, NOT n.encrypted
        FROM unnest(${tasks.map((task) => task.taskKey)}::uuid[], ${tasks.map((task) => task.clientId)}::int[], ${tasks.map((task) => task.phoneId)}::int[],
                    ${tasks.map((task) => task.recipient)}::text[], ${tasks.map((task) => task.message)}::text[],
                    ${tasks.map((task) => task.scheduledAt.toISOString())}::timestamptz[], ${tasks.map((task) => task.scheduledLocal)}::text[],
                    ${tasks.map((task) => task.expiresAt?.toISOString() ?? null)}::timestamptz[], ${tasks.map((task) => task.pinned)}::boolean[],
                    ${tasks.map((task) => task.highPriority)}::boolean[], ${tasks.map((task) => task.parts)}::smallint[], ${tasks.map((task) => task.sim)}::smallint[],
                    ${tasks.map((task) => task.receipts)}::boolean[], ${tasks.map((task) => task.encrypted)}::boolean[])
          WITH ORDINALITY AS n(task_key, client_id, phone_id, recipient, message, scheduled_at, scheduled_local, expires_at, pinned, high_priority, parts, sim, receipts, encrypted, position)
       ORDER BY n.position
      RETURNING ${TASK_COLUMNS}`;
    const byKey = new Map(rows.map((row) => [row.taskKey.toLowerCase(), row]));
    return tasks.map((task) => {
      const stored = byKey.get(task.taskKey.toLowerCase());
      if (!stored) throw new Error(`task ${task.taskKey} was not stored`);
      return stored;
    });
  }

  /**
   * Fails a client's task that no worker was ever handed (pending, never claimed) with `error`, in
   * one conditional statement; null when there is no such task (another state, another client's, none).
   */
  async failUntouchedOfClient(clientId: number, id: number, error: string, tx: DbTransaction): Promise<Task | null> {
    const rows = await tx.$queryRaw<Task[]>`
      UPDATE "dispatch"."tasks" t SET status = 'failed', failed_at = now(), error = ${error}
       WHERE t.id = ${id} AND t.client_id = ${clientId} AND t.status = 'pending' AND t.attempts = 0
      RETURNING ${TASK_COLUMNS}`;
    return rows[0] ?? null;
  }

  /** A task nobody has touched yet (pending, never claimed) fails as abandoned; false if it is already under way. */
  async abandonUntouched(taskKey: string, error: string, tx: DbTransaction): Promise<boolean> {
    const changed = await tx.$executeRaw`
      UPDATE "dispatch"."tasks" SET status = 'failed', failed_at = now(), error = ${error}
       WHERE task_key = ${taskKey}::uuid AND status = 'pending' AND attempts = 0`;
    return changed === 1;
  }

  async voidKey(taskKey: string, tx: DbTransaction): Promise<void> {
    await tx.$executeRaw`INSERT INTO "dispatch"."voided_task_keys" (task_key) VALUES (${taskKey}::uuid) ON CONFLICT DO NOTHING`;
  }
}
