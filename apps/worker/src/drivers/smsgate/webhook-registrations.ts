import { reasonOf } from '../../http/http-answers.js';
import * as androidSmsGateway from 'android-sms-gateway';
import type { WebHookEventType } from 'android-sms-gateway';
import { isLoopbackUrl } from '@smsq/platform/env';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { SmsGateApi } from './smsgate-api.js';
import { statusOf } from './smsgate-http-client.js';

const { WebHookEventType: Events } = androidSmsGateway;

/** Stable ids, so registering again replaces rather than adds (WebHooksService.replace upserts by id). */
export const SMSQ_WEBHOOKS: ReadonlyArray<{ id: string; event: WebHookEventType }> = [
  { id: 'smsq-sms-received', event: Events.SmsReceived },
  { id: 'smsq-sms-sent', event: Events.SmsSent },
  { id: 'smsq-sms-delivered', event: Events.SmsDelivered },
  { id: 'smsq-sms-failed', event: Events.SmsFailed },
];

/**
 * Registers this worker's receiver with each gateway it serves, once per run.
 *
 * The app accepts only `https://` URLs or `http://127.0.0.1` (WebHooksService.replace; any http
 * only in its "insecure" build). A worker on the phone itself uses 127.0.0.1; a worker elsewhere on
 * the LAN needs an https tunnel or reverse proxy as its public URL, or goes without webhooks and
 * relies on pulling `GET /inbox` (and on polling its messages) instead.
 */
export class WebhookRegistrations {
  private readonly settled = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  /** The last trouble logged per gateway, so one outage is one line, not one per round. */
  private readonly problems = new Map<string, string>();

  constructor(
    private readonly apiFor: (baseUrl: string) => SmsGateApi,
    private readonly url: string,
    private readonly log: WorkerLog,
  ) {}

  /** Registers at `baseUrl` unless done or refused for good; a gateway that did not answer is tried again on the next call. */
  ensure(baseUrl: string, signal: AbortSignal): Promise<void> {
    if (this.settled.has(baseUrl)) return Promise.resolve();
    const running = this.running.get(baseUrl) ?? this.register(baseUrl, signal).finally(() => this.running.delete(baseUrl));
    this.running.set(baseUrl, running);
    return running;
  }

  private async register(baseUrl: string, signal: AbortSignal): Promise<void> {
    if (isLoopbackUrl(this.url) && !isLoopbackUrl(baseUrl)) {
      // The app would take it, and post every event to the phone itself.
      this.settled.add(baseUrl);
      this.log.warn('smsgate webhooks not registered: their address is this machine, which the phone cannot reach; replies are pulled from GET /inbox instead (set SMSGATE_WEBHOOK_URL to an https address the phone can reach)', { gateway: baseUrl, url: this.url });
      return;
    }
    const api = this.apiFor(baseUrl);
    try {
      for (const webhook of SMSQ_WEBHOOKS) await api.registerWebhook({ id: webhook.id, event: webhook.event, url: this.url }, signal);
      this.settled.add(baseUrl);
      this.log.info('smsgate webhooks registered', { gateway: baseUrl, url: this.url });
    } catch (error) {
      const status = statusOf(error);
      if (status === 400) {
        this.settled.add(baseUrl);
        this.log.error('smsgate refused the webhook URL: it takes only https:// or http://127.0.0.1; replies are pulled from GET /inbox instead', { gateway: baseUrl, url: this.url, reason: reasonOf(error) });
      } else {
        const reason = status === 401 ? 'the user or password was refused' : reasonOf(error);
        if (this.problems.get(baseUrl) !== reason) this.log.warn('smsgate webhooks not registered yet', { gateway: baseUrl, reason });
        this.problems.set(baseUrl, reason);
      }
    }
  }
}
