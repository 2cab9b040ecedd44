import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RepeatingJob } from '@smsq/platform';
import { inTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { tasksExpired, tasksFailed } from '../metrics/task-counters.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { refundOfFailedTask } from '../outbox/refund-message.js';
import { LEASE_SWEEP_INTERVAL_MS } from './lease-expiry.js';
import { LeasesRepository } from './leases.repository.js';

const BATCH = 500;
/** Batches one sweep may fail; a larger backlog continues at the next sweep. */
const MAX_BATCHES = 10;

/**
 * Ends the tasks that waited past their expiry (the client's `ttl` or `expires_at`, or
 * SMSQ_TASK_MAX_AGE_S): failed with the error `expired`, the refund written to the outbox in the
 * same transaction, so it is refunded exactly once. Claims never hand such a task out meanwhile.
 */
@Injectable()
export class TaskExpiry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TaskExpiry.name);
  private readonly job = new RepeatingJob('task expiry', LEASE_SWEEP_INTERVAL_MS, () => this.sweepOnce(), this.logger);

  constructor(
    private readonly db: DispatchDatabase,
    private readonly leases: LeasesRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** How many tasks this sweep failed as expired. */
  async sweepOnce(): Promise<number> {
    let expired = 0;
    if (!(await this.leases.anyExpiredTask())) return expired;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const tasks = await inTransaction(this.db, async (tx) => {
        const failed = await this.leases.expireTasks(tx, BATCH);
        await this.outbox.enqueue(tx, failed.map((task) => refundOfFailedTask(task.taskKey, 'task_expired')));
        await this.outbox.enqueueTaskEvents(tx, 'task.expired', failed.map((task) => task.id));
        return failed;
      });
      expired += tasks.length;
      tasksExpired.inc(tasks.length);
      tasksFailed.inc({ reason: 'expired' }, tasks.length);
      if (tasks.length < BATCH) break;
    }
    if (expired > 0) this.logger.log(`expired tasks: ${expired} failed and refunded`);
    return expired;
  }
}
