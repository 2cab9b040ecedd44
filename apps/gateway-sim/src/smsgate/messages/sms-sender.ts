import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Chance } from '../../chance/chance.js';
import { GatewaySimConfig } from '../../config/gateway-sim-config.js';
import { InboxService } from '../inbox/inbox.service.js';
import { PhoneClock } from '../phone/phone-clock.js';
import { SmsGateConfig } from '../smsgate-config.js';
import { SmsEvents } from '../webhooks/sms-events.js';
import { dialledNumber } from './dialled-number.js';
import { MessageStore } from './message-store.js';
import type { OutgoingMessage } from './outgoing-message.js';
import type { ProcessingState } from './processing-state.js';
import { SEND_FAILURE_TEXTS } from './send-failure-kinds.js';
import { SendFaults } from './send-faults.js';
import { SendLimit } from './send-limit.js';
import { SentSmsLog } from './sent-sms-log.js';
import { countSegments } from '@smsq/contracts';

/** The app's error texts, word for word. */
export const TTL_EXPIRED = 'TTL expired';
export const SEND_FAILURE = SEND_FAILURE_TEXTS['generic-failure'];
export const INVALID_NUMBER = 'sendSMS: Invalid phone number';
export const LIMIT_EXCEEDED = SEND_FAILURE_TEXTS['limit-exceeded'];

/**
 * The phone sending: one message at a time from the queue, each after `pendingMs` at its head.
 * A message whose TTL passed while it waited fails ("TTL expired") and is never sent. Otherwise
 * each recipient is handed to the radio (Processed), then reported Sent (or Failed, at the failure
 * rate, with the failure kind's words: send-faults.ts; or once the phone's limit on SMS sent is
 * reached, with RESULT_ERROR_LIMIT_EXCEEDED: send-limit.ts) after `sentMs` and, with a delivery report,
 * Delivered after `deliveredMs` more; the reports
 * arrive while the next message is already being sent, as on a phone.
 */
@Injectable()
export class SmsSender implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SmsSender.name);
  private held: boolean;
  private closed = false;
  /** Running while the message at the head of the queue is being worked on. */
  private paceTimer: NodeJS.Timeout | undefined;
  /** Running while the queue only holds messages scheduled for later. */
  private wakeTimer: NodeJS.Timeout | undefined;
  private readonly reportTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly config: SmsGateConfig,
    private readonly simConfig: GatewaySimConfig,
    private readonly faults: SendFaults,
    private readonly limit: SendLimit,
    private readonly chance: Chance,
    private readonly clock: PhoneClock,
    private readonly store: MessageStore,
    private readonly sent: SentSmsLog,
    private readonly events: SmsEvents,
    private readonly inbox: InboxService,
  ) {
    this.held = config.hold;
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** While held, every message stays Pending; reports of messages already sent still arrive. */
  hold(held: boolean): void {
    this.held = held;
    this.logger.log(held ? 'queue held' : 'queue released');
    this.lookForWork();
  }

  /** Starts on the next message unless busy, held, or nothing is due. */
  lookForWork(): void {
    if (this.closed || this.held || this.paceTimer !== undefined) return;
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    const now = this.clock.now();
    if (this.store.nextPending(this.config.processingOrder, now) !== undefined) {
      this.paceTimer = setTimeout(() => {
        this.paceTimer = undefined;
        this.sendNext();
        this.lookForWork();
      }, this.config.pendingMs);
      return;
    }
    const scheduled = this.store.nextScheduledAt();
    if (scheduled !== undefined) this.wakeTimer = setTimeout(() => this.lookForWork(), Math.max(0, scheduled.getTime() - now.getTime()));
  }

  onApplicationBootstrap(): void {
    this.lookForWork();
  }

  onApplicationShutdown(): void {
    this.closed = true;
    clearTimeout(this.paceTimer);
    clearTimeout(this.wakeTimer);
    this.reportTimers.forEach((timer) => clearTimeout(timer));
  }

  private sendNext(): void {
    if (this.held || this.closed) return;
    const message = this.store.nextPending(this.config.processingOrder, this.clock.now());
    if (message !== undefined) this.send(message);
  }

  private send(message: OutgoingMessage): void {
    const { order } = message;
    const fault = this.faults.plan;
    if (order.validUntil !== null && order.validUntil.getTime() < this.clock.now().getTime()) return this.update(message, null, 'Failed', TTL_EXPIRED);
    // The app's queue giving up on a message it never sent, as if its ttl had passed while it waited.
    if (fault.kind === 'ttl-expired' && this.chance.happens(fault.rate)) return this.update(message, null, 'Failed', TTL_EXPIRED);
    if (order.simNumber !== null && order.simNumber > this.config.simCount) return this.update(message, null, 'Failed', `Can't send message: SIM ${order.simNumber} not found`);
    message.partsCount = countSegments(order.text);
    const dialled: string[] = [];
    for (const { phoneNumber } of message.recipients.filter((recipient) => recipient.state === 'Pending')) {
      const number = dialledNumber(phoneNumber, order.skipPhoneValidation);
      if (number === undefined) {
        this.update(message, phoneNumber, 'Failed', INVALID_NUMBER);
        continue;
      }
      this.update(message, phoneNumber, 'Processed', null);
      // Android refuses past its limit before the radio sees the SMS: nothing is sent.
      if (this.limit.reached) {
        this.later(this.config.sentMs, () => this.update(message, phoneNumber, 'Failed', LIMIT_EXCEEDED));
        continue;
      }
      if (fault.kind !== 'ttl-expired' && this.chance.happens(fault.rate)) {
        const error = SEND_FAILURE_TEXTS[fault.kind];
        this.later(this.config.sentMs, () => this.update(message, phoneNumber, 'Failed', error));
        continue;
      }
      dialled.push(number);
      this.limit.counted();
      this.later(this.config.sentMs, () => this.reportSent(message, phoneNumber));
    }
    if (dialled.length > 0) this.sent.record({ messageId: message.id, phoneNumbers: dialled, text: order.text, simNumber: order.simNumber, sentAt: this.clock.now().toISOString() });
    this.logger.log(`message ${message.id}: ${dialled.length} of ${message.recipients.length} recipient(s) sent`);
  }

  private reportSent(message: OutgoingMessage, phoneNumber: string): void {
    this.update(message, phoneNumber, 'Sent', null);
    if (message.order.withDeliveryReport) this.later(this.config.deliveredMs, () => this.update(message, phoneNumber, 'Delivered', null));
    if (this.chance.happens(this.simConfig.replyRate)) {
      this.inbox.receive({ sender: phoneNumber, text: `Re: ${message.order.text.slice(0, 100)}`, receivedAt: this.clock.now(), simNumber: message.order.simNumber }, false);
    }
  }

  /** Moves one recipient (all when `phoneNumber` is null) and tells the webhooks, as the app's updateState does. */
  private update(message: OutgoingMessage, phoneNumber: string | null, state: ProcessingState, error: string | null): void {
    message.updateRecipients(phoneNumber, state, error, this.clock.now());
    const phoneNumbers = phoneNumber === null ? message.recipients.map((recipient) => recipient.phoneNumber) : [phoneNumber];
    this.events.messageStateChanged(message, phoneNumbers, state, error);
  }

  private later(delayMs: number, report: () => void): void {
    const timer = setTimeout(() => {
      this.reportTimers.delete(timer);
      if (!this.closed) report();
    }, delayMs);
    this.reportTimers.add(timer);
  }
}
