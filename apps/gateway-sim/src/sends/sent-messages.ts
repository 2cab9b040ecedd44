export interface SentMessage {
  /** The gateway's id for a send it accepted; null for a simulated failure. */
  message_id: string | null;
  /** smsq's task id, when the worker sent one. */
  id: number | null;
  recipient: string;
  message: string;
  status: 'sent' | 'failed';
  received_at: string;
}

/** The last sends in memory, for demos and tests to look at; the oldest fall out past the limit. */
export class SentMessages {
  private readonly messages: SentMessage[] = [];

  constructor(private readonly limit = 1_000) {}

  remember(message: SentMessage): void {
    this.messages.push(message);
    if (this.messages.length > this.limit) this.messages.splice(0, this.messages.length - this.limit);
  }

  newestFirst(): SentMessage[] {
    return [...this.messages].reverse();
  }
}
