import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, Patterns, type TaskSettleCommand, type TaskSettlement } from '@smsq/contracts';
import { RepeatingJob, serviceClientToken, type ServiceClient } from '@smsq/platform';
import { ChargesService } from '../charges/charges.service.js';
import { TaskChargesRepository } from '../charges/task-charges.repository.js';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase } from '../database/billing-database.js';

const SWEEP_INTERVAL_MS = 1_000;
const SWEEP_BATCH = 100;

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

  /** Settles the held charges older than `settleAfterS`, one batch. */
  async sweepOnce(now = new Date()): Promise<SweepOutcome> {
    const outcome: SweepOutcome = { kept: 0, refunded: 0, deferred: 0, failed: 0 };
    const due = await this.charges.heldSince(this.database, new Date(now.getTime() - this.config.settleAfterS * 1_000), SWEEP_BATCH);
    for (const [index, charge] of due.entries()) {
      const settlement = await this.settlementOf(charge.taskKey);
      if (settlement === 'unavailable') {
        outcome.deferred = due.length - index;
        break;
      }
      try {
        await this.apply(charge.taskKey, settlement, outcome);
      } catch (error) {
        // One charge that cannot be settled must not hold back the ones after it.
        outcome.failed += 1;
        this.logger.error(`could not settle the charge of task ${charge.taskKey}: ${describe(error)}`);
      }
    }
    return outcome;
  }

  private async sweepAndLog(): Promise<void> {
    const outcome = await this.sweepOnce();
    if (outcome.kept || outcome.refunded) this.logger.log(`settled held charges: ${outcome.kept} kept, ${outcome.refunded} refunded`);
  }

  private async apply(taskKey: string, settlement: TaskSettlement | null, outcome: SweepOutcome): Promise<void> {
    if (settlement?.outcome === 'created') {
      if (await this.chargesService.keep(taskKey)) outcome.kept += 1;
    } else if (settlement?.outcome === 'voided') {
      const { refunded } = await this.chargesService.refund({ taskKey, reason: 'task_not_created' });
      if (refunded) outcome.refunded += 1;
    }
  }

  /** Dispatch's verdict; 'unavailable' ends this round, null skips a key dispatch refused to settle. */
  private async settlementOf(taskKey: string): Promise<TaskSettlement | 'unavailable' | null> {
    const command: TaskSettleCommand = { taskKey };
    try {
      return await this.dispatch.send<TaskSettlement>(Patterns.dispatch.taskSettle, command);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unavailable') {
        this.logger.debug(`dispatch is unavailable; held charges wait for the next round`);
        return 'unavailable';
      }
      this.logger.warn(`dispatch refused to settle task ${taskKey}: ${describe(error)}`);
      return null;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
