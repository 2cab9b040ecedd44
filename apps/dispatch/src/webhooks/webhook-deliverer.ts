import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { taskBody } from '@smsq/contracts';
import { RepeatingJob } from '@smsq/platform';
import { DispatchConfig } from '../config/dispatch-config.js';
import { webhookDeliveries } from '../metrics/task-counters.js';
import { toTaskView } from '../tasks/task-view.js';
import { guardedPost } from './guarded-post.js';
import { signatureHeader } from './webhook-signature.js';
import { WebhookDeliveriesRepository, type DueDelivery } from './webhook-deliveries.repository.js';

const INTERVAL_MS = 1_000;
/** Sends under way at once, over all endpoints. */
const MAX_IN_FLIGHT = 64;
/** Longer than a send can take (its timeout), so a delivery under way is never taken twice. */
const LEASE_S = 60;
const SEND_TIMEOUT_MS = 10_000;
/** A slow or failing receiver holds up only its own deliveries: at most this many at once per endpoint, over all instances. */
const PER_ENDPOINT = 4;
/** Retries go on for 24 hours after the event. */
const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
export const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** An endpoint whose every delivery failed for this long is disabled. */
const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
const DISABLE_CHECK_INTERVAL_MS = 60_000;

export interface DelivererOptions {
  /** The first retry's wait; each next one doubles, up to an hour. */
  retryBaseMs: number;
}

/**
 * Sends the queued webhook deliveries, at least once each: a delivery is leased before it is sent
 * and settled after, so a deliverer that dies leaves it due again, and any number of dispatch
 * instances share the work without sending one twice at the same time. 2xx delivers it; 410 Gone
 * disables the endpoint; anything else, or no answer, is retried with exponential back-off and
 * jitter for 24 hours. Each round starts sends and does not wait for them, at most 4 under way per
 * endpoint over all instances, so a slow or failing receiver delays no other; a send that ends starts
 * the next round at once.
 */
@Injectable()
export class WebhookDeliverer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliverer.name);
  private readonly job = new RepeatingJob('webhook deliveries', INTERVAL_MS, () => this.startDue().then(() => undefined), this.logger);
  private options: DelivererOptions = { retryBaseMs: 10_000 };
  /** This instance's sends under way. */
  private readonly underWay = new Set<Promise<void>>();
  private disableCheckedAt = 0;
  /** The last round found more due deliveries than it had places for: other endpoints are waiting. */
  private roundWasFull = false;
  private stopping = false;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly config: DispatchConfig,
  ) {}

  /** For tests that cannot wait ten seconds for a retry. */
  withOptions(options: Partial<DelivererOptions>): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** Lets the sends under way settle, so none is left to its lease. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.job.stop();
    await Promise.all([...this.underWay]);
  }

  /** One round, waiting for the sends it started; answers how many it started. */
  async deliverDue(): Promise<number> {
    const started = await this.startDue();
    await Promise.all(started);
    return started.length;
  }

  private async startDue(): Promise<Array<Promise<void>>> {
    // A check over days need not run every second: once a minute keeps a statement off each round.
    if (Date.now() - this.disableCheckedAt >= DISABLE_CHECK_INTERVAL_MS) {
      this.disableCheckedAt = Date.now();
      const disabled = await this.deliveries.disableFailingSince(new Date(Date.now() - DISABLE_AFTER_MS), 'every delivery failed for 3 days');
      if (disabled.length > 0) this.logger.warn(`webhook endpoints ${disabled.join(', ')} disabled: every delivery failed for 3 days`);
    }
    if (this.underWay.size >= MAX_IN_FLIGHT) {
      this.roundWasFull = true;
      return [];
    }
    // An idle deliverer looks before it locks: most of its rounds find nothing due. A busy one just took some, and takes.
    if (this.underWay.size === 0 && !(await this.deliveries.anyDue())) {
      this.roundWasFull = false;
      return [];
    }
    const places = MAX_IN_FLIGHT - this.underWay.size;
    const due = await this.deliveries.takeDue(places, LEASE_S, PER_ENDPOINT);
    this.roundWasFull = due.length === places;
    return due.map((delivery) => {
      const send: Promise<void> = this.deliverInTurn(delivery).finally(() => {
        this.underWay.delete(send);
        // A place is free again: waiting for the next round would hold a busy endpoint to a few sends a second.
        this.job.runSoon();
      });
      this.underWay.add(send);
      return send;
    });
  }

  /** Sends `first`, then each delivery its endpoint hands the place on to. */
  private async deliverInTurn(first: DueDelivery): Promise<void> {
    for (let delivery: DueDelivery | null = first; delivery; ) delivery = await this.deliver(delivery);
  }

  /**
   * A settled send hands its place to its endpoint's next due delivery, a round trip less than
   * waiting for a round; not while other endpoints wait for places (the last round was full), where
   * the round's due order decides.
   */
  private handOverLeaseS(): number | null {
    return this.stopping || this.roundWasFull ? null : LEASE_S;
  }

  /** Sends one delivery and settles it; answers the one handed its place, if any. */
  private async deliver(delivery: DueDelivery): Promise<DueDelivery | null> {
    try {
      const body = delivery.body ?? (await this.deliveries.fixBody(delivery.id, await this.render(delivery)));
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'smsq-webhooks/1',
        'smsq-event-id': delivery.eventId,
        'smsq-event-type': delivery.type,
        'smsq-signature': signatureHeader(delivery.previousSecret ? [delivery.secret, delivery.previousSecret] : [delivery.secret], body, new Date()),
      };
      let statusCode: number;
      try {
        ({ statusCode } = await guardedPost(new URL(delivery.url), body, headers, { timeoutMs: SEND_TIMEOUT_MS, allowPrivate: this.config.webhookAllowPrivate }));
      } catch (error) {
        webhookDeliveries.inc({ outcome: 'unreachable' });
        return await this.failed(delivery, { statusCode: null, error: (error as Error).message });
      }
      if (statusCode >= 200 && statusCode < 300) {
        webhookDeliveries.inc({ outcome: 'delivered' });
        return await this.deliveries.markDelivered(delivery, statusCode, this.handOverLeaseS());
      }
      if (statusCode === 410) {
        await this.deliveries.markAttemptFailed(delivery, { statusCode, error: 'the endpoint answered 410 Gone' }, null);
        await this.deliveries.disableEndpoint(delivery.endpointId, 'the endpoint answered 410 Gone');
        webhookDeliveries.inc({ outcome: 'gone' });
        return null;
      }
      webhookDeliveries.inc({ outcome: 'http_error' });
      return await this.failed(delivery, { statusCode, error: `the endpoint answered ${statusCode}` });
    } catch (error) {
      // The lease returns it: the next round tries again.
      this.logger.warn(`webhook delivery ${delivery.id} not settled: ${(error as Error).message}`);
      return null;
    }
  }

  /** The next attempt after a doubling, jittered wait, the last one at the end of the 24 hours; none once they are over. */
  private failed(delivery: DueDelivery, failure: { statusCode: number | null; error: string }): Promise<DueDelivery | null> {
    const backoff = Math.min(this.options.retryBaseMs * 2 ** (delivery.attempts - 1), MAX_BACKOFF_MS);
    const retryUntil = delivery.createdAt.getTime() + RETRY_FOR_MS;
    const next = Date.now() >= retryUntil ? null : new Date(Math.min(Date.now() + backoff * (0.8 + Math.random() * 0.4), retryUntil));
    return this.deliveries.markAttemptFailed(delivery, failure, next, this.handOverLeaseS());
  }

  /** The event as the receiver gets it: its id, type and time, and the task as the public API shows it. */
  private async render(delivery: DueDelivery): Promise<string> {
    const task = delivery.taskId === null ? null : await this.deliveries.taskOf(delivery.taskId);
    if (!task) throw new Error(`task ${delivery.taskId} of webhook event ${delivery.eventId} is gone`);
    return JSON.stringify({ id: delivery.eventId, type: delivery.type, created_at: delivery.createdAt.toISOString(), data: taskBody(toTaskView(task)) });
  }
}
