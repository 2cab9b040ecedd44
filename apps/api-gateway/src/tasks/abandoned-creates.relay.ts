import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Patterns, type TaskSettleCommand, type TaskSettlement } from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { AbandonedCreatesRepository } from './abandoned-creates.repository.js';

const INTERVAL_MS = 2_000;
const BATCH = 50;

/**
 * Makes a 503 answer true after the fact: when the gateway could not learn whether a task was
 * stored, it told the client "not queued" and noted the key; once dispatch answers again, a task
 * that was stored but never touched is failed and refunded there.
 */
@Injectable()
export class AbandonedCreatesRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AbandonedCreatesRelay.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly abandoned: AbandonedCreatesRepository,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.relay(), INTERVAL_MS);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async relay(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const taskKey of await this.abandoned.oldest(BATCH)) {
        const command: TaskSettleCommand = { taskKey, abandon: true };
        const settlement = await this.dispatch.send<TaskSettlement>(Patterns.dispatch.taskSettle, command);
        if (settlement.outcome === 'created') {
          this.logger.error(`task ${settlement.task.id} (${taskKey}) was under way before it could be abandoned; the client was answered 503`);
        }
        await this.abandoned.forget(taskKey);
      }
    } catch (error) {
      this.logger.warn(`abandoned creates not settled yet: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
