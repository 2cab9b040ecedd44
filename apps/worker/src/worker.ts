import { PassphraseKeyring } from '@smsq/message-crypto';
import { reasonOf } from './http/http-answers.js';
import type { WorkerConfig } from './config/worker-config.js';
import { createDriver } from './drivers/create-driver.js';
import type { PhoneDriver } from './drivers/phone-driver.js';
import { HealthReporter } from './health/health-reporter.js';
import type { LogFields, WorkerLog } from './logging/worker-log.js';
import { MessageOpener } from './encryption/message-opener.js';
import { ReplyForwarder } from './replies/reply-forwarder.js';
import { ReplyKeywords } from './replies/reply-keywords.js';
import { ReplySealer } from './replies/reply-sealer.js';
import { SmsqClient } from './smsq/smsq-client.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { ClaimSizer } from './delivery/claim-sizer.js';
import { SendPacer } from './delivery/send-pacer.js';
import { TaskReporter } from './delivery/task-reporter.js';

/**
 * The worker with its real clients, as `main.ts` and the tests build it: the delivery loops, and
 * beside them the phone's replies and health on their way to smsq, all stopped by `stop()`. One
 * keyring for the process opens encrypted tasks and seals replies, so each key is derived once.
 */
export class Worker {
  private readonly stopping = new AbortController();
  readonly delivery: DeliveryWorker;
  private readonly replies: ReplyForwarder | undefined;
  private readonly replyKeywords: ReplyKeywords | undefined;
  private readonly health: HealthReporter;

  constructor(
    private readonly config: WorkerConfig,
    private readonly log: WorkerLog,
    readonly driver: PhoneDriver = createDriver(config, log),
    random: () => number = Math.random,
  ) {
    const smsq = new SmsqClient(config);
    const keyring = config.passphrase ? new PassphraseKeyring(config.passphrase.text) : undefined;
    this.delivery = new DeliveryWorker(smsq, driver, new TaskReporter(smsq, config.timings.report, log, random, this.stopping.signal), log, {
      concurrency: config.concurrency,
      timings: config.timings,
      pacer: new SendPacer(config.pacing, random),
      opener: new MessageOpener(keyring),
      sizer: new ClaimSizer({ fixed: config.claimLimit, pacing: config.pacing, concurrency: config.concurrency }),
      stopGraceMs: config.stopGraceMs,
      random,
    });
    this.replyKeywords = driver.watchReplies && config.encryptReplies && keyring ? new ReplyKeywords(smsq, log) : undefined;
    const sealer = this.replyKeywords && keyring ? new ReplySealer(keyring, this.replyKeywords) : undefined;
    this.replies = driver.watchReplies ? new ReplyForwarder(smsq, log, sealer) : undefined;
    this.health = new HealthReporter(driver, smsq, log, config.healthIntervalMs);
  }

  /** Runs until `stop()` and every task in hand is reported. */
  async run(): Promise<void> {
    const replies = this.replies ? this.driver.watchReplies?.(this.replies.sink, this.stopping.signal) : undefined;
    await Promise.all([
      this.delivery.run(),
      this.health.run(this.stopping.signal),
      replies?.catch((error: unknown) => this.log.error('replies stopped', { reason: reasonOf(error) })),
      this.replyKeywords?.run(this.stopping.signal),
    ]);
  }

  stop(): void {
    this.stopping.abort();
    this.delivery.stop();
  }

  get isStopping(): boolean {
    return this.delivery.isStopping;
  }

  /** For logs: what this worker drives, never its secrets (of the passphrase, only where it came from). */
  describe(): LogFields {
    return {
      smsq: this.config.baseUrl,
      driver: this.driver.name,
      wait_s: this.config.waitS,
      concurrency: this.config.concurrency,
      sends_per_minute: this.config.pacing.perMinute,
      claim_limit: this.config.claimLimit ?? 'from the pace',
      passphrase: this.config.passphrase?.origin ?? 'none',
      encrypt_replies: this.config.encryptReplies,
    };
  }
}
