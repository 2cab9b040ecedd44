import type { ReceiptEvent } from '@smsq/contracts';
import { MESSAGE_STATE_BY_STAT, receiptText, type ReceiptStat } from '../protocol/index.js';
import type { OutgoingDelivery } from '../binds/bind-registry.js';
import type { DueReceipt } from './receipts.repository.js';

/** What each task event says in a receipt (docs/guide/smpp.md): its `stat:` and `err:`. */
const RECEIPT_OF: Record<ReceiptEvent, { stat: ReceiptStat; err: number }> = {
  'task.sent': { stat: 'ACCEPTD', err: 0 },
  'task.delivered': { stat: 'DELIVRD', err: 0 },
  'task.failed': { stat: 'UNDELIV', err: 1 },
  'task.expired': { stat: 'EXPIRED', err: 2 },
  'task.cancelled': { stat: 'REJECTD', err: 3 },
};

/** A kept receipt as the deliver_sm that carries it: from the recipient back to the submit's sender. */
export function receiptDelivery(receipt: DueReceipt): OutgoingDelivery {
  const what = RECEIPT_OF[receipt.event];
  const messageId = String(receipt.taskId);
  return {
    sourceAddr: receipt.destinationAddr,
    destinationAddr: receipt.sourceAddr,
    esmClass: 0x04,
    text: receiptText({ messageId, submittedAt: receipt.submittedAt, doneAt: receipt.at, stat: what.stat, error: what.err, text: receipt.textHead }),
    receipt: { messageId, messageState: MESSAGE_STATE_BY_STAT[what.stat] },
  };
}
