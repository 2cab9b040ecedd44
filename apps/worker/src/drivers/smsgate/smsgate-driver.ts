import { reasonOf } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { OutgoingSms, PhoneDriver, PhoneHealth, ReplySink, SendOutcome } from '../phone-driver.js';
import { MessageNews } from './message-news.js';
import { phoneHealthOf } from './phone-health.js';
import { replyFromWebhook } from './received-sms.js';
import { ReplyCursor } from './reply-cursor.js';
import { ReplyWatcher } from './reply-watcher.js';
import { gatewayBaseUrl, SmsGateApi } from './smsgate-api.js';
import { SmsGateSender } from './smsgate-sender.js';
import { WEBHOOK_PATH, WebhookReceiver, type SmsGateWebhookEvent } from './webhook-receiver.js';
import { WebhookRegistrations } from './webhook-registrations.js';

export interface SmsGateDriverOptions {
  /** The Local Server's Basic auth login: from the worker's environment, never from smsq, never logged. */
  user: string;
  password: string;
  /** The phone's address for replies, health and webhook registration, which no task names. */
  gatewayUrl?: string;
  /** The SIM to send from (1-based); the phone's default when unset. */
  simNumber?: number;
  /** Ask the carrier for delivery reports. Default true. */
  withDeliveryReport?: boolean;
  /** Between two `GET /message/{id}` while following a message. */
  pollIntervalMs: number;
  /** One request to the phone. */
  requestTimeoutMs: number;
  /** The phone gives up on the SMS (its ttl) this long before the claim lapses. Default 30 s. */
  ttlMarginMs?: number;
  /** Following stops this long before the claim lapses, leaving time to report. Default 5 s. */
  reportReserveMs?: number;
  /** `followDelivery` gives up after this long. Default 10 minutes. */
  deliveryReportTimeoutMs?: number;
  /** Receive the app's webhooks (replies at once, message news early); see webhook-registrations.ts for which URLs the app takes. */
  webhook?: { listenHost: string; listenPort: number; publicUrl: string; signingKey?: string };
  /** Between two pulls of `GET /inbox`. Default 15 s. */
  inboxPollIntervalMs?: number;
  /** How far back each inbox pull looks. Default 6 hours. */
  inboxLookbackMs?: number;
  /** The replies already handed over (JSON, mode 0600). */
  stateFile: string;
  log: WorkerLog;
  fetch?: typeof fetch;
}

/**
 * SMS Gateway for Android (capcom6/android-sms-gateway) in Local Server mode at the task's gateway
 * URL (docs/guide/phones.md, setup 1).
 */
export class SmsGateDriver implements PhoneDriver {
  readonly name = 'smsgate';
  private readonly news = new MessageNews();
  private readonly sender: SmsGateSender;
  /** While `watchReplies` runs a receiver: registers it with each gateway a task names. */
  private receiving: { registrations: WebhookRegistrations; signal: AbortSignal } | undefined;

  constructor(private readonly options: SmsGateDriverOptions) {
    this.sender = new SmsGateSender((baseUrl) => this.api(baseUrl), this.news, {
      simNumber: options.simNumber,
      withDeliveryReport: options.withDeliveryReport ?? true,
      pollIntervalMs: options.pollIntervalMs,
      ttlMarginMs: options.ttlMarginMs ?? 30_000,
      reportReserveMs: options.reportReserveMs ?? 5_000,
      deliveryReportTimeoutMs: options.deliveryReportTimeoutMs ?? 600_000,
      log: options.log,
    });
  }

  /**
   * `sent` or `failed` as the phone said it; `unknown` when the phone may still send it (still
   * Pending or Processed, or unreachable) as the claim is about to lapse, or when the claim lapses
   * too soon to give the phone a useful ttl.
   */
  send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    const baseUrl = gatewayBaseUrl(sms.gatewayUrl);
    if (baseUrl !== undefined && this.receiving !== undefined) void this.receiving.registrations.ensure(baseUrl, this.receiving.signal);
    return this.sender.handOver(sms, signal);
  }

  followDelivery(sms: OutgoingSms, signal: AbortSignal): Promise<boolean> {
    return this.sender.followDelivery(sms, signal);
  }

  async watchReplies(sink: ReplySink, signal: AbortSignal): Promise<void> {
    const { log } = this.options;
    const gateway = this.gatewayApi();
    const watcher = new ReplyWatcher(ReplyCursor.open(this.options.stateFile, log), gateway, {
      inboxPollIntervalMs: this.options.inboxPollIntervalMs ?? 15_000,
      inboxLookbackMs: this.options.inboxLookbackMs ?? 6 * 3_600_000,
      log,
    });
    const receiver = await this.startReceiver(watcher);
    if (gateway === undefined && receiver === undefined) {
      log.warn('smsgate replies not watched: no gateway URL to pull from and no webhook receiver');
      return;
    }
    const registrations = receiver === undefined ? undefined : new WebhookRegistrations((baseUrl) => this.api(baseUrl), `${this.options.webhook?.publicUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`, log);
    if (registrations !== undefined) this.receiving = { registrations, signal };
    try {
      await watcher.run(sink, signal, async () => {
        if (registrations !== undefined && gateway !== undefined) await registrations.ensure(gateway.baseUrl, signal);
      });
    } finally {
      this.receiving = undefined;
      await receiver?.close();
    }
  }

  async health(signal: AbortSignal): Promise<PhoneHealth | undefined> {
    const gateway = this.gatewayApi();
    if (gateway === undefined) return undefined;
    try {
      return phoneHealthOf(await gateway.health(signal));
    } catch {
      return undefined;
    }
  }

  private async startReceiver(watcher: ReplyWatcher): Promise<WebhookReceiver | undefined> {
    const { webhook, log } = this.options;
    if (webhook === undefined) return undefined;
    try {
      const receiver = await WebhookReceiver.start({ ...webhook, log, onEvent: (event) => this.onWebhook(event, watcher) });
      log.info('smsgate webhook receiver listening', { host: webhook.listenHost, port: receiver.port, signed: webhook.signingKey !== undefined });
      // Any app on the phone can post to 127.0.0.1: without the app's signing key a reply could be forged.
      if (webhook.signingKey === undefined) log.warn('smsgate webhooks are not verified: set SMSGATE_WEBHOOK_SIGNING_KEY to the signing key of the app\'s webhook settings');
      return receiver;
    } catch (error) {
      log.error('smsgate webhook receiver not started; replies are only pulled', { host: webhook.listenHost, port: webhook.listenPort, reason: reasonOf(error) });
      return undefined;
    }
  }

  private onWebhook(event: SmsGateWebhookEvent, watcher: ReplyWatcher): void {
    if (event.event === 'sms:received') {
      const reply = replyFromWebhook(event.payload);
      if (reply !== undefined) watcher.offer(reply);
      return;
    }
    const messageId = event.payload['messageId'];
    if (typeof messageId === 'string') this.news.notify(messageId);
  }

  private gatewayApi(): SmsGateApi | undefined {
    const baseUrl = gatewayBaseUrl(this.options.gatewayUrl);
    return baseUrl === undefined ? undefined : this.api(baseUrl);
  }

  private api(baseUrl: string): SmsGateApi {
    const { user, password, requestTimeoutMs } = this.options;
    return new SmsGateApi(baseUrl, { user, password }, this.options.fetch ?? fetch, requestTimeoutMs);
  }
}
