import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DispatchConfig } from '../config/dispatch-config.js';
import { inTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { claimLeaseExpiries, tasksFailed } from '../metrics/task-counters.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { refundOfFailedTask } from '../outbox/refund-message.js';
import { RepeatingJob } from '@smsq/platform';
import { LeasesRepository } from './leases.repository.js';

export const LEASE_SWEEP_INTERVAL_MS = 1_000;
const BATCH = 200;
/** Batches one sweep may settle; a larger backlog continues at the next sweep. */
const MAX_BATCHES = 10;

export interface LeaseSweep {
  returned: number;
  failed: number;
}

/**
 * Takes back claims nobody reported within SMSQ_CLAIM_TIMEOUT_S (DESIGN §3): the task is due
 * again for another attempt, or after SMSQ_MAX_ATTEMPTS it fails and its refund goes into the
 * outbox in the same transaction.
 */
@Injectable()
export class LeaseExpiry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LeaseExpiry.name);
  private readonly job = new RepeatingJob('lease expiry', LEASE_SWEEP_INTERVAL_MS, () => this.sweepOnce(), this.logger);

  constructor(
    private readonly db: DispatchDatabase,
    private readonly leases: LeasesRepository,
    private readonly outbox: OutboxRepository,
    private readonly signals: DueSignals,
    private readonly config: DispatchConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  async sweepOnce(): Promise<LeaseSweep> {
    const sweep: LeaseSweep = { returned: 0, failed: 0 };
    if (!(await this.leases.anyLapsedClaim())) return sweep;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const expired = await inTransaction(this.db, async (tx) => {
        const claims = await this.leases.expireClaims(tx, this.config.maxAttempts, BATCH);
        const failed = claims.filter((claim) => claim.status === 'failed');
        await this.outbox.enqueue(tx, failed.map((claim) => refundOfFailedTask(claim.taskKey)));
        await this.outbox.enqueueTaskEvents(tx, 'task.failed', failed.map((claim) => claim.id));
        return claims;
      });
      const returned = expired.filter((claim) => claim.status === 'pending');
      const failed = expired.length - returned.length;
      sweep.returned += returned.length;
      sweep.failed += failed;
      claimLeaseExpiries.inc({ outcome: 'returned' }, returned.length);
      claimLeaseExpiries.inc({ outcome: 'failed' }, failed);
      tasksFailed.inc({ reason: 'attempts_exhausted' }, failed);
      void this.signals.announce(returned.map((claim) => claim.phoneId));
      if (expired.length < BATCH) break;
    }
    if (sweep.returned || sweep.failed) this.logger.log(`expired claims: ${sweep.returned} due again, ${sweep.failed} failed`);
    return sweep;
  }
}
