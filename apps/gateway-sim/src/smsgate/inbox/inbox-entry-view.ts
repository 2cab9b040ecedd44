import type { PhoneClock } from '../phone/phone-clock.js';
import type { InboxEntry } from './inbox.service.js';

/** An inbox entry as the app writes it (its InboxMessage through Gson; `recipient`, the SIM's own number, is unknown). */
export function inboxEntryView(entry: InboxEntry, clock: PhoneClock): Record<string, unknown> {
  const { sms } = entry;
  return { id: entry.id, type: 'SMS', sender: sms.sender, ...(sms.simNumber === null ? {} : { simNumber: sms.simNumber }), contentPreview: sms.text, createdAt: clock.format(sms.receivedAt), attachments: [] };
}
