import { chainHash, javaDateHash, javaStringHash } from './java-hash.js';

/** An SMS in the phone's own SMS store: who sent it, what it says, when, and on which SIM. */
export interface ReceivedSms {
  sender: string;
  text: string;
  receivedAt: Date;
  simNumber: number | null;
}

/**
 * The app's `InboxMessage.Text.hashCode()` (address, date, subscription, then text). The app names a
 * received SMS by it: `text:<hash>` in its inbox, the hash as unsigned hex for `sms:received`, so the
 * same SMS keeps the same ids when an export emits it again. The SIM number stands in for the
 * subscription id.
 */
function receivedSmsHash(sms: ReceivedSms): number {
  const base = chainHash(chainHash(javaStringHash(sms.sender), javaDateHash(sms.receivedAt)), sms.simNumber ?? 0);
  return chainHash(base, javaStringHash(sms.text));
}

export function inboxId(sms: ReceivedSms): string {
  return `text:${receivedSmsHash(sms)}`;
}

export function receivedMessageId(sms: ReceivedSms): string {
  return (receivedSmsHash(sms) >>> 0).toString(16);
}
