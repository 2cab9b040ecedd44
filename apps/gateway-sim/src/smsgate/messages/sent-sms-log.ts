/** One SMS that left the simulated phone: what went to whom, and when. */
export interface SentSms {
  messageId: string;
  phoneNumbers: string[];
  text: string;
  simNumber: number | null;
  sentAt: string;
}

/** Every SMS the phone actually sent, oldest first, so a test can prove none went out twice. */
export class SentSmsLog {
  private readonly sent: SentSms[] = [];

  record(sms: SentSms): void {
    this.sent.push(sms);
  }

  all(): SentSms[] {
    return [...this.sent];
  }

  /**
   * SMS sent per message id, and per smsq task for the ids the reference worker gives
   * (`smsq-<task id>-<scheduled time>`): one SMS per number dialled, so a test can prove that
   * every task went out exactly once across several phones.
   */
  counts(): SentSmsCounts {
    const counts: SentSmsCounts = { messages: {}, tasks: {} };
    for (const sms of this.sent) {
      counts.messages[sms.messageId] = (counts.messages[sms.messageId] ?? 0) + sms.phoneNumbers.length;
      const task = /^smsq-(\d+)(?:-|$)/.exec(sms.messageId)?.[1];
      if (task !== undefined) counts.tasks[task] = (counts.tasks[task] ?? 0) + sms.phoneNumbers.length;
    }
    return counts;
  }
}

/** `GET /sim/sends/counts`: message id → SMS sent, smsq task id → SMS sent. */
export interface SentSmsCounts {
  messages: Record<string, number>;
  tasks: Record<string, number>;
}
