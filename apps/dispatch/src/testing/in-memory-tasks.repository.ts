import type { DbTransaction } from '../database/db-transaction.js';
import type { Task } from '../generated/prisma/client.js';
import type { NewTask, TaskKeyState, TasksRepository } from '../tasks/tasks.repository.js';
import { FAKE_TRANSACTION, FakeTransactions } from './fake-transaction.js';
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

  underKeyLock<T>(taskKey: string, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    return this.underKeyLocks([taskKey], work);
  }

  async underKeyLocks<T>(taskKeys: readonly string[], work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    // Each key's own lock, taken in sorted order as the real repository takes them.
    const locked = [...new Set(taskKeys)]
      .sort()
      .reduceRight<(tx: DbTransaction) => Promise<T>>((inner, taskKey) => () => this.transactions.run(`task:${taskKey}`, inner), work);
    const result = await locked(FAKE_TRANSACTION);
    if (this.loseNextCommitAnswer) {
      this.loseNextCommitAnswer = false;
      throw new Error('connection lost after commit');
    }
    return result;
  }

  async findByKey(taskKey: string): Promise<Task | null> {
    return this.store.tasks.find((task) => task.taskKey === taskKey) ?? null;
  }

  async findByKeys(taskKeys: readonly string[]): Promise<Task[]> {
    return this.store.tasks.filter((task) => taskKeys.includes(task.taskKey));
  }

  async findOfClient(clientId: number, id: number): Promise<Task | null> {
    return this.store.tasks.find((task) => task.id === id && task.clientId === clientId) ?? null;
  }

  async keyStates(taskKeys: readonly string[]): Promise<TaskKeyState[]> {
    return taskKeys.map((taskKey) => ({ stored: this.store.tasks.some((task) => task.taskKey === taskKey), voided: this.store.voidedKeys.has(taskKey) }));
  }

  async insertMany(tasks: readonly NewTask[]): Promise<Task[]> {
    const failure = this.failNextInsert;
    this.failNextInsert = undefined;
    if (failure) throw failure;
    if (tasks.some((task) => this.store.tasks.some((existing) => existing.taskKey === task.taskKey))) throw new Error('duplicate task key');
    return tasks.map((task) => {
      this.store.phone(task.phoneId).lastAssignedAt = this.store.now();
      return this.store.addTask(task);
    });
  }

  async failUntouchedOfClient(clientId: number, id: number, error: string): Promise<Task | null> {
    const task = this.store.tasks.find((candidate) => candidate.id === id && candidate.clientId === clientId);
    if (!task || task.status !== 'pending' || task.attempts !== 0) return null;
    return Object.assign(task, { status: 'failed', failedAt: new Date(), error });
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
