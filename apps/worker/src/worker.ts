import { reasonOf } from './http/http-answers.js';
import type { WorkerConfig } from './config/worker-config.js';
import { createDriver } from './drivers/create-driver.js';
import type { PhoneDriver } from './drivers/phone-driver.js';
import { HealthReporter } from './health/health-reporter.js';
import type { WorkerLog } from './logging/worker-log.js';
import { ReplyForwarder } from './replies/reply-forwarder.js';
import { SmsqClient } from './smsq/smsq-client.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { ClaimSizer } from './delivery/claim-sizer.js';
import { SendPacer } from './delivery/send-pacer.js';
import { TaskReporter } from './delivery/task-reporter.js';

/**
 * The worker with its real clients, as `main.ts` and the tests build it: the delivery loops, and
 * beside them the phone's replies and health on their way to smsq, all stopped by `stop()`.
 */
export class Worker {
  private readonly stopping = new AbortController();
  readonly delivery: DeliveryWorker;
  private readonly replies: ReplyForwarder | undefined;
  private readonly health: HealthReporter;

  constructor(
    private readonly config: WorkerConfig,
    private readonly log: WorkerLog,
    readonly driver: PhoneDriver = createDriver(config, log),
    random: () => number = Math.random,
  ) {
    const smsq = new SmsqClient(config);
    this.delivery = new DeliveryWorker(smsq, driver, new TaskReporter(smsq, config.timings.report, log, random, this.stopping.signal), log, {
      concurrency: config.concurrency,
      timings: config.timings,
      pacer: new SendPacer(config.pacing, random),
      sizer: new ClaimSizer({ fixed: config.claimLimit, pacing: config.pacing, concurrency: config.concurrency }),
      stopGraceMs: config.stopGraceMs,
      random,
    });
    this.replies = driver.watchReplies ? new ReplyForwarder(smsq, log) : undefined;
    this.health = new HealthReporter(driver, smsq, log, config.healthIntervalMs);
  }

  /** Runs until `stop()` and every task in hand is reported. */
  async run(): Promise<void> {
    const replies = this.replies ? this.driver.watchReplies?.(this.replies.sink, this.stopping.signal) : undefined;
    await Promise.all([this.delivery.run(), this.health.run(this.stopping.signal), replies?.catch((error: unknown) => this.log.error('replies stopped', { reason: reasonOf(error) }))]);
  }

  stop(): void {
    this.stopping.abort();
    this.delivery.stop();
  }

  get isStopping(): boolean {
    return this.delivery.isStopping;
  }

  /** For logs: what this worker drives, never its secrets. */
  describe(): Record<string, string | number> {
    return { smsq: this.config.baseUrl, driver: this.driver.name, wait_s: this.config.waitS, concurrency: this.config.concurrency, sends_per_minute: this.config.pacing.perMinute, claim_limit: this.config.claimLimit ?? 'from the pace' };
  }
}
