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
}
