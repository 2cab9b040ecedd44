import type { InboxMessageView } from '@smsq/contracts';
import type { StoredMessage } from './messages.repository.js';

export function toInboxMessageView(row: StoredMessage): InboxMessageView {
  return {
    id: row.id,
    clientId: row.clientId,
    phoneId: row.phoneId,
    from: row.sender,
    message: row.body,
    encrypted: row.encrypted,
    receivedAt: row.receivedAt.toISOString(),
    storedAt: row.storedAt.toISOString(),
  };
}
