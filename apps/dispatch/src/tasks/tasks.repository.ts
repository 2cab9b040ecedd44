import { Injectable } from '@nestjs/common';
import { lockUntilCommit } from '../database/advisory-lock.js';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { Task } from '../generated/prisma/client.js';

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

  async isVoided(taskKey: string, tx?: DbTransaction): Promise<boolean> {
    const voided = await (tx ?? this.db).voidedTaskKey.findUnique({ where: { taskKey } });
    return voided !== null;
  }

  insert(task: NewTask, tx: DbTransaction): Promise<Task> {
    return tx.task.create({ data: { ...task, status: 'pending', attempts: 0 } });
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
