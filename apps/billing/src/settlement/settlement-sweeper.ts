import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, MAX_SETTLE_BATCH, Patterns, type BatchAnswer, type TaskSettleBatchCommand, type TaskSettlement } from '@smsq/contracts';
import { RepeatingJob, serviceClientToken, type ServiceClient } from '@smsq/platform';
import { ChargesService } from '../charges/charges.service.js';
import { TaskChargesRepository } from '../charges/task-charges.repository.js';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase } from '../database/billing-database.js';

const SWEEP_INTERVAL_MS = 1_000;
/** Rounds one tick may run back to back while each finds a full batch, so that the sweep keeps up with busy creates. */
const ROUNDS_PER_TICK = 10;

export type DispatchClient = Pick<ServiceClient, 'send'>;

export interface SweepOutcome {
  kept: number;
  refunded: number;
  /** Held charges left for a later round because dispatch did not answer. */
  deferred: number;
  failed: number;
}

/**
 * Nothing lost: a debit whose task never got created (dispatch crashed after the debit, the
 * broker lost the answer) is settled with dispatch once it is old enough, kept if the task
 * exists, refunded if dispatch voids the key.
 */
@Injectable()
export class SettlementSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SettlementSweeper.name);
  private readonly job = new RepeatingJob('settlement sweep', SWEEP_INTERVAL_MS, () => this.sweepAndLog(), this.logger);

  constructor(
    private readonly database: BillingDatabase,
    private readonly charges: TaskChargesRepository,
    private readonly chargesService: ChargesService,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: DispatchClient,
    private readonly config: BillingConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** Settles the held charges older than `settleAfterS`, one batch: dispatch is asked about all of them in one message. */
  async sweepOnce(now = new Date()): Promise<SweepOutcome> {
    const outcome: SweepOutcome = { kept: 0, refunded: 0, deferred: 0, failed: 0 };
    const due = await this.charges.heldSince(this.database.sql, new Date(now.getTime() - this.config.settleAfterS * 1_000), MAX_SETTLE_BATCH);
    if (due.length === 0) return outcome;
    const taskKeys = due.map((charge) => charge.taskKey);
    const settlements = await this.settlementsOf(taskKeys);
    if (settlements === 'unavailable') {
      outcome.deferred = due.length;
      return outcome;
    }
    outcome.kept = await this.chargesService.keepMany(taskKeys.filter((_, index) => settlements[index]?.outcome === 'created'));
    for (const [index, taskKey] of taskKeys.entries()) {
      if (settlements[index]?.outcome !== 'voided') continue;
      try {
        const { refunded } = await this.chargesService.refund({ taskKey, reason: 'task_not_created' });
        if (refunded) outcome.refunded += 1;
      } catch (error) {
        // One charge that cannot be settled must not hold back the ones after it.
        outcome.failed += 1;
        this.logger.error(`could not settle the charge of task ${taskKey}: ${describe(error)}`);
      }
    }
    return outcome;
  }

  private async sweepAndLog(): Promise<void> {
    for (let round = 0; round < ROUNDS_PER_TICK; round++) {
      const outcome = await this.sweepOnce();
      if (outcome.kept || outcome.refunded) this.logger.log(`settled held charges: ${outcome.kept} kept, ${outcome.refunded} refunded`);
      if (outcome.kept + outcome.refunded < MAX_SETTLE_BATCH) return;
    }
  }

  /**
   * Dispatch's verdict on each key, in order: null for a key it could not settle now (asked
   * again next round); 'unavailable' when it did not answer, which ends the round.
   */
  private async settlementsOf(taskKeys: string[]): Promise<Array<TaskSettlement | null> | 'unavailable'> {
    const command: TaskSettleBatchCommand = { taskKeys };
    try {
      const answer = await this.dispatch.send<BatchAnswer<TaskSettlement>>(Patterns.dispatch.taskSettleBatch, command);
      return taskKeys.map((taskKey, index) => {
        const result = answer.results[index];
        if (result?.ok) return result.value;
        this.logger.warn(`dispatch did not settle task ${taskKey}: ${result ? result.error.detail : 'no answer for it'}`);
        return null;
      });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unavailable') {
        this.logger.debug(`dispatch is unavailable; held charges wait for the next round`);
        return 'unavailable';
      }
      this.logger.warn(`dispatch refused to settle ${taskKeys.length} held charges: ${describe(error)}`);
      return taskKeys.map(() => null);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
