import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { phoneBody, type WebhookEventType } from '@smsq/contracts';
import type { PrismaTransaction } from '../database/db-transaction.js';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository.js';
import { PhoneConditions } from './phone-conditions.js';
import { toPhoneDetails } from './phone-view.js';
import { PhonesRepository, type PhoneTransition } from './phones.repository.js';

/**
 * Tells phones' owners what happened to them (`phone.silent`, `phone.online`, `phone.paused`,
 * `phone.resumed`): each event's body is the phone as it is in the transaction of the change, and
 * is queued in it, so the event exists exactly when the change does. A shared-pool gateway has no
 * owner to tell.
 */
@Injectable()
export class PhoneEvents {
  constructor(
    private readonly phones: PhonesRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly conditions: PhoneConditions,
  ) {}

  async announce(tx: PrismaTransaction, type: WebhookEventType, transitions: readonly PhoneTransition[]): Promise<void> {
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
