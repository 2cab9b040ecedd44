import { Injectable } from '@nestjs/common';
import { receivedMessageId, type ReceivedSms } from '../inbox/received-sms.js';
import type { OutgoingMessage } from '../messages/outgoing-message.js';
import type { ProcessingState } from '../messages/processing-state.js';
import { nanoId } from '../phone/nano-id.js';
import { PhoneClock } from '../phone/phone-clock.js';
import { SmsGateConfig } from '../smsgate-config.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import type { WebhookEvent } from './webhook-event.js';
import { WebhookRegistry } from './webhook-registry.js';

const EVENT_OF_STATE: Partial<Record<ProcessingState, WebhookEvent>> = { Sent: 'sms:sent', Delivered: 'sms:delivered', Failed: 'sms:failed', Cancelled: 'sms:cancelled' };

/**
 * Turns what happens on the phone into webhook events, as the app's EventsReceiver does: one event
 * per recipient and state change, each to every webhook subscribed to it, in the body
 * `{id, webhookId, event, deviceId, payload}`. Payload fields follow the app's payload classes in
 * Gson's order (the event's own fields, then messageId, sender, recipient, simNumber, phoneNumber),
 * null ones left out; the SIM's own number is unknown, so `sender` of outgoing and `recipient` of
 * incoming SMS are absent, as on a phone that cannot read it.
 */
@Injectable()
export class SmsEvents {
  constructor(
    private readonly config: SmsGateConfig,
    private readonly clock: PhoneClock,
    private readonly webhooks: WebhookRegistry,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  messageStateChanged(message: OutgoingMessage, phoneNumbers: string[], state: ProcessingState, error: string | null): void {
    const event = EVENT_OF_STATE[state];
    if (event === undefined) return;
    const at = this.clock.format(this.clock.now());
    const own = {
      'sms:sent': { partsCount: message.partsCount ?? -1, sentAt: at },
      'sms:delivered': { deliveredAt: at },
      'sms:failed': { failedAt: at, reason: error ?? 'Unknown' },
      'sms:cancelled': { cancelledAt: at },
    }[event as 'sms:sent' | 'sms:delivered' | 'sms:failed' | 'sms:cancelled'];
    const simNumber = message.order.simNumber === null ? {} : { simNumber: message.order.simNumber };
    for (const phoneNumber of phoneNumbers) this.emit(event, { ...own, messageId: message.id, recipient: phoneNumber, ...simNumber, phoneNumber });
  }

  smsReceived(sms: ReceivedSms): void {
    const simNumber = sms.simNumber === null ? {} : { simNumber: sms.simNumber };
    this.emit('sms:received', { message: sms.text, receivedAt: this.clock.format(sms.receivedAt), messageId: receivedMessageId(sms), sender: sms.sender, ...simNumber, phoneNumber: sms.sender });
  }

  private emit(event: WebhookEvent, payload: Record<string, unknown>): void {
    for (const webhook of this.webhooks.subscribedTo(event)) {
      const body = { id: nanoId(), webhookId: webhook.id, event, deviceId: this.config.deviceId, payload };
      this.deliveries.enqueue(webhook.url, JSON.stringify(body));
    }
  }
}
