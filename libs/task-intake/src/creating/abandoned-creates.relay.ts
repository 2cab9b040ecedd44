import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Patterns, type TaskSettleCommand, type TaskSettlement } from '@smsq/contracts';
import { RepeatingJob, ServiceClient, serviceClientToken } from '@smsq/platform';
import { AbandonedCreates } from './abandoned-creates.js';

const INTERVAL_MS = 2_000;
const BATCH = 50;
/** Far beyond a batch's settling; an instance that dies holding keys delays them this long at most. */
const LEASE_MS = 60_000;

/**
 * Makes an "unavailable" answer true after the fact: when a service could not learn whether a task
 * was stored, it told the client "not queued" and noted the key; once dispatch answers again, a
 * task that was stored but never touched is failed and refunded there.
 */
@Injectable()
export class AbandonedCreatesRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AbandonedCreatesRelay.name);
  private readonly job = new RepeatingJob('abandoned creates relay', INTERVAL_MS, () => this.relay(), this.logger);

  constructor(
    private readonly abandoned: AbandonedCreates,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  async relay(): Promise<void> {
    const taken = await this.abandoned.take(BATCH, LEASE_MS).catch((error: Error) => {
      this.logger.warn(`abandoned creates not read: ${error.message}`);
      return [];
    });
    let settled = 0;
    try {
      for (const taskKey of taken) {
        const command: TaskSettleCommand = { taskKey, abandon: true };
        const settlement = await this.dispatch.send<TaskSettlement>(Patterns.dispatch.taskSettle, command);
        if (settlement.outcome === 'created') {
          this.logger.error(`task ${settlement.task.id} (${taskKey}) was under way before it could be abandoned; the client was answered unavailable`);
        }
        await this.abandoned.forget(taskKey);
        settled++;
      }
    } catch (error) {
      this.logger.warn(`abandoned creates not settled yet: ${(error as Error).message}`);
      await this.abandoned.release(taken.slice(settled)).catch(() => undefined);
    }
  }
}
