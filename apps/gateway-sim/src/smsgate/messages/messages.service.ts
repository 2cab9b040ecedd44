import { Injectable, Logger } from '@nestjs/common';
import { MessageNotFound, SmsGateBadRequest } from '../errors/smsgate-errors.js';
import { nanoId } from '../phone/nano-id.js';
import { PhoneClock } from '../phone/phone-clock.js';
import { SmsEvents } from '../webhooks/sms-events.js';
import { MessageStore, type MessageFilter } from './message-store.js';
import { OutgoingMessage } from './outgoing-message.js';
import type { SendOrder } from './send-order.js';
import { SmsSender } from './sms-sender.js';

/** The phone's messages: queues what it is asked to send and answers what became of it. */
@Injectable()
export class MessagesService {
  private readonly logger = new Logger(MessagesService.name);

  constructor(
    private readonly clock: PhoneClock,
    private readonly store: MessageStore,
    private readonly sender: SmsSender,
    private readonly events: SmsEvents,
  ) {}

  enqueue(order: SendOrder): OutgoingMessage {
    const message = new OutgoingMessage(order.id ?? nanoId(), order, this.clock.now());
    this.store.add(message);
    this.logger.log(`message ${message.id} to ${order.phoneNumbers.length} recipient(s) queued`);
    this.sender.lookForWork();
    return message;
  }

  get(id: string): OutgoingMessage {
    const message = this.store.get(id);
    if (message === undefined) throw new MessageNotFound(id);
    return message;
  }

  /** Cancels a message still in the queue (app 1.68.0); one already cancelled is answered as it is. */
  cancel(id: string): OutgoingMessage {
    const message = this.get(id);
    if (message.state === 'Cancelled') return message;
    if (message.state !== 'Pending') throw new SmsGateBadRequest(`Message ${id} is not in Pending state`);
    message.updateRecipients(null, 'Cancelled', null, this.clock.now());
    this.events.messageStateChanged(message, message.recipients.map((recipient) => recipient.phoneNumber), 'Cancelled', null);
    return message;
  }

  select(filter: MessageFilter): { total: number; page: OutgoingMessage[] } {
    return this.store.select(filter);
  }
}
