import type { ProcessingState } from './processing-state.js';
import type { SendOrder } from './send-order.js';

export interface RecipientState {
  phoneNumber: string;
  state: ProcessingState;
  error: string | null;
}

/** A message in the phone's database: its order, each recipient's state and the message's state history. */
export class OutgoingMessage {
  readonly recipients: RecipientState[];
  /** Each state the message reached, with when it first reached it (the app's `states`). */
  readonly states = new Map<ProcessingState, Date>();
  /** When the message first became Processed (handed to the radio); never for one that expired in the queue. */
  processedAt: Date | null = null;
  partsCount: number | null = null;

  constructor(
    readonly id: string,
    readonly order: SendOrder,
    readonly createdAt: Date,
  ) {
    this.recipients = order.phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Pending', error: null }));
    this.states.set('Pending', createdAt);
  }

  /** The message's state, derived from its recipients' as the app derives it. */
  get state(): ProcessingState {
    const states = this.recipients.map((recipient) => recipient.state);
    for (const open of ['Pending', 'Cancelling', 'Cancelled', 'Processed'] as const) if (states.includes(open)) return open;
    if (states.every((state) => state === 'Failed')) return 'Failed';
    if (states.every((state) => state === 'Delivered')) return 'Delivered';
    return 'Sent';
  }

  /** Moves one recipient, or all when `phoneNumber` is null; a recipient that Failed stays Failed, as in the app. */
  updateRecipients(phoneNumber: string | null, state: ProcessingState, error: string | null, at: Date): void {
    for (const recipient of this.recipients) {
      if ((phoneNumber === null || recipient.phoneNumber === phoneNumber) && recipient.state !== 'Failed') Object.assign(recipient, { state, error });
    }
    const reached = this.state;
    if (!this.states.has(reached)) this.states.set(reached, at);
    if (reached === 'Processed' && this.processedAt === null) this.processedAt = at;
  }
}
