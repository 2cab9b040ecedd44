import type { DbTransaction } from '../database/db-transaction.js';
import type { Task } from '../generated/prisma/client.js';
import type { NewTask, TaskKeyState, TasksRepository } from '../tasks/tasks.repository.js';
import { FakeTransactions } from './fake-transaction.js';
import type { PublicOf } from './stand-in.js';
import type { InMemoryStore } from './in-memory-store.js';

export class InMemoryTasksRepository implements PublicOf<TasksRepository> {
  /** Set to make the next insert fail, as a database error would. */
  failNextInsert: Error | undefined;
  /** Set to make the next transaction commit and then report an error, as a lost connection would. */
  loseNextCommitAnswer = false;
  private readonly transactions: FakeTransactions;

  constructor(private readonly store: InMemoryStore) {
    this.transactions = new FakeTransactions(store);
  }

  async underKeyLock<T>(taskKey: string, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    const result = await this.transactions.run(`task:${taskKey}`, work);
    if (this.loseNextCommitAnswer) {
      this.loseNextCommitAnswer = false;
      throw new Error('connection lost after commit');
    }
    return result;
  }

  async findByKey(taskKey: string): Promise<Task | null> {
    return this.store.tasks.find((task) => task.taskKey === taskKey) ?? null;
  }

  async findOfClient(clientId: number, id: number): Promise<Task | null> {
    return this.store.tasks.find((task) => task.id === id && task.clientId === clientId) ?? null;
  }

  async keyState(taskKey: string): Promise<TaskKeyState> {
    return { stored: this.store.tasks.some((task) => task.taskKey === taskKey), voided: this.store.voidedKeys.has(taskKey) };
  }

  async insert(task: NewTask): Promise<Task> {
    const failure = this.failNextInsert;
    this.failNextInsert = undefined;
    if (failure) throw failure;
    if (this.store.tasks.some((existing) => existing.taskKey === task.taskKey)) throw new Error('duplicate task key');
    this.store.phone(task.phoneId).lastAssignedAt = this.store.now();
    return this.store.addTask(task);
  }

  async abandonUntouched(taskKey: string, error: string): Promise<boolean> {
    const task = this.store.tasks.find((candidate) => candidate.taskKey === taskKey);
    if (!task || task.status !== 'pending' || task.attempts !== 0) return false;
    Object.assign(task, { status: 'failed', failedAt: new Date(), error });
    return true;
  }

  async voidKey(taskKey: string): Promise<void> {
    this.store.voidedKeys.add(taskKey);
  }
}
