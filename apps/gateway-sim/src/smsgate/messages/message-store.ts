import { MessageIdTaken } from '../errors/smsgate-errors.js';
import type { ProcessingOrder } from '../smsgate-config.js';
import { OutgoingMessage } from './outgoing-message.js';
import type { ProcessingState } from './processing-state.js';

export interface MessageFilter {
  state: ProcessingState | undefined;
  from: Date;
  to: Date;
  limit: number;
  offset: number;
}

/** The phone's message database, in memory. */
export class MessageStore {
  private readonly messages = new Map<string, OutgoingMessage>();

  add(message: OutgoingMessage): void {
    // The app's primary keys: a message id, and a phone number once per message.
    const numbers = message.order.phoneNumbers;
    if (this.messages.has(message.id) || new Set(numbers).size !== numbers.length) throw new MessageIdTaken();
    this.messages.set(message.id, message);
  }

  get(id: string): OutgoingMessage | undefined {
    return this.messages.get(id);
  }

  /** Newest first, with the total before paging (the app's X-Total-Count). */
  select(filter: MessageFilter): { total: number; page: OutgoingMessage[] } {
    const matching = [...this.messages.values()]
      .filter((message) => (filter.state === undefined || message.state === filter.state) && within(message.createdAt, filter.from, filter.to))
      .reverse()
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const page = filter.limit < 0 ? matching.slice(filter.offset) : matching.slice(filter.offset, filter.offset + filter.limit);
    return { total: matching.length, page };
  }

  /** The message the phone sends next: highest priority first, then oldest (FIFO) or newest (LIFO); a scheduled one waits for its time. */
  nextPending(order: ProcessingOrder, now: Date): OutgoingMessage | undefined {
    const due = [...this.messages.values()].filter((message) => message.state === 'Pending' && (message.order.scheduleAt ?? now).getTime() <= now.getTime());
    if (order === 'LIFO') due.reverse();
    const direction = order === 'FIFO' ? 1 : -1;
    return due.sort((a, b) => b.order.priority - a.order.priority || direction * (a.createdAt.getTime() - b.createdAt.getTime()))[0];
  }

  /** When the earliest scheduled pending message becomes due, if any is waiting. */
  nextScheduledAt(): Date | undefined {
    const times = [...this.messages.values()].filter((message) => message.state === 'Pending' && message.order.scheduleAt !== null).map((message) => message.order.scheduleAt!.getTime());
    return times.length === 0 ? undefined : new Date(Math.min(...times));
  }

  /** Messages the phone processed since `since`, and how many of those failed (the app's health check). */
  processedSince(since: Date): { processed: number; failed: number } {
    let processed = 0;
    let failed = 0;
    for (const message of this.messages.values()) {
      if (message.processedAt === null || message.processedAt.getTime() < since.getTime()) continue;
      if (message.state === 'Failed') failed++;
      else if (!['Pending', 'Cancelling', 'Cancelled'].includes(message.state)) processed++;
    }
    return { processed, failed };
  }
}

function within(date: Date, from: Date, to: Date): boolean {
  return date.getTime() >= from.getTime() && date.getTime() <= to.getTime();
}
