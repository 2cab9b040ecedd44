import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { requestSignal } from '@smsq/platform';
import { PhoneClock } from '../phone/phone-clock.js';
import { SmsGateConfig } from '../smsgate-config.js';
import { signPayload } from './payload-signature.js';
import { APP_VERSION } from '../health/app-version.js';

interface Delivery {
  url: string;
  body: string;
  attempt: number;
}

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The phone's webhook queue: one POST at a time, in the order the events happened, signed when a
 * signing key is set; a delivery that fails (no answer, or a status outside 2xx) goes back into the
 * queue after a pause that grows with each attempt, until the retries run out, as in the app.
 */
@Injectable()
export class WebhookDeliveries implements OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveries.name);
  private readonly queue: Delivery[] = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly shutdown = new AbortController();
  private draining = false;

  constructor(
    private readonly config: SmsGateConfig,
    private readonly clock: PhoneClock,
  ) {}

  enqueue(url: string, body: string): void {
    this.queue.push({ url, body, attempt: 0 });
    void this.drain();
  }

  onApplicationShutdown(): void {
    this.shutdown.abort();
    this.retryTimers.forEach((timer) => clearTimeout(timer));
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let delivery = this.queue.shift(); delivery !== undefined && !this.shutdown.signal.aborted; delivery = this.queue.shift()) {
        const failure = await this.post(delivery);
        if (failure !== undefined) this.retryLater(delivery, failure);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Undefined when the receiver took it, or why it did not. */
  private async post(delivery: Delivery): Promise<string | undefined> {
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8', 'user-agent': `me.capcom.smsgateway/${APP_VERSION.version}` };
    if (this.config.signingKey !== undefined) {
      const timestamp = String(Math.floor(this.clock.now().getTime() / 1000));
      Object.assign(headers, { 'x-timestamp': timestamp, 'x-signature': signPayload(this.config.signingKey, delivery.body, timestamp) });
    }
    const bounded = requestSignal(REQUEST_TIMEOUT_MS, this.shutdown.signal);
    try {
      const response = await fetch(delivery.url, { method: 'POST', headers, body: delivery.body, signal: bounded.signal });
      await response.body?.cancel();
      return response.ok ? undefined : `status ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      bounded.release();
    }
  }

  private retryLater(delivery: Delivery, failure: string): void {
    if (this.shutdown.signal.aborted) return;
    if (delivery.attempt >= this.config.webhookRetries) {
      this.logger.warn(`webhook to ${delivery.url} dropped after ${delivery.attempt + 1} attempt(s): ${failure}`);
      return;
    }
    this.logger.log(`webhook to ${delivery.url} failed (${failure}); retrying`);
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.queue.push({ ...delivery, attempt: delivery.attempt + 1 });
      void this.drain();
    }, this.config.webhookRetryMs * (delivery.attempt + 1));
    this.retryTimers.add(timer);
  }
}
