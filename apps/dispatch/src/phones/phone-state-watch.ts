import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { phoneBody, type WebhookEventType } from '@smsq/contracts';
import { RepeatingJob } from '@smsq/platform';
import type { PrismaTransaction } from '../database/db-transaction.js';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository.js';
import { PhoneConditions } from './phone-conditions.js';
import { toPhoneDetails } from './phone-view.js';
import { PhonesRepository, type PhoneTransition } from './phones.repository.js';

export const PHONE_WATCH_INTERVAL_MS = 5_000;

/**
 * Tells each phone's owner when it goes silent and when it is back (`phone.silent`,
 * `phone.online` webhook events, signed and retried like every event). A phone is announced
 * silent once per silence, and back once, whichever dispatch instance sees it first. A phone
 * disabled while silent is not announced back: it is not online.
 */
@Injectable()
export class PhoneStateWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PhoneStateWatch.name);
  private readonly job = new RepeatingJob('phone state watch', PHONE_WATCH_INTERVAL_MS, () => this.watchOnce(), this.logger);

  constructor(
    private readonly phones: PhonesRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly conditions: PhoneConditions,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** The phones announced by this round: those that went silent, and those back online. */
  async watchOnce(): Promise<{ silent: number[]; online: number[] }> {
    const announced = await this.phones.transitions(async ({ silent, back }, tx) => {
      const online = back.filter((phone) => phone.active);
      await this.announce(tx, 'phone.silent', silent);
      await this.announce(tx, 'phone.online', online);
      return { silent: silent.map((phone) => phone.id), online: online.map((phone) => phone.id) };
    });
    for (const id of announced.silent) this.logger.warn(`phone ${id} went silent: no contact for SMSQ_PHONE_SILENT_S`);
    for (const id of announced.online) this.logger.log(`phone ${id} is back online`);
    return announced;
  }

  /** A shared-pool gateway has no owner to tell. */
  private async announce(tx: PrismaTransaction, type: WebhookEventType, transitions: readonly PhoneTransition[]): Promise<void> {
    const owned = transitions.filter((phone) => phone.clientId !== null);
    if (owned.length === 0) return;
    const ids = owned.map((phone) => phone.id);
    const phones = await this.phones.findMany(ids, tx);
    const counts = await this.phones.countsOf(ids, tx);
    const events = phones.map((phone) => {
      const eventId = randomUUID();
      const body = JSON.stringify({ id: eventId, type, created_at: new Date().toISOString(), data: phoneBody(toPhoneDetails(phone, this.conditions, counts.get(phone.id)!)) });
      return { clientId: phone.clientId!, eventId, taskId: null, body };
    });
    await this.deliveries.queueFixed(type, events, tx);
  }
}
