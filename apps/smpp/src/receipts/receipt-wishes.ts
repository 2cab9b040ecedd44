import type { ReceiptEvent } from '@smsq/contracts';

/** registered_delivery's bits 0–1: 1, a receipt on success or failure; 2, on failure only. */
const FINAL_RECEIPT = 0x03;
/** registered_delivery's bit 4: intermediate notifications. */
const INTERMEDIATE = 0x10;

/** Whether a submit asked for any receipt at all. */
export function wantsReceipts(registeredDelivery: number): boolean {
  return (registeredDelivery & FINAL_RECEIPT) !== 0 || (registeredDelivery & INTERMEDIATE) !== 0;
}

/**
 * Whether a submit with `registeredDelivery` is owed a receipt for `event`. `task.sent` (ACCEPTD:
 * the phone handed it to its carrier) counts with success, since a phone that reports no delivery
 * never gives a DELIVRD; a failure-only submit hears only of failures.
 */
export function wantsReceiptFor(registeredDelivery: number, event: ReceiptEvent): boolean {
  const final = registeredDelivery & FINAL_RECEIPT;
  if (event === 'task.sent' || event === 'task.delivered') return final === 1 || (event === 'task.sent' && (registeredDelivery & INTERMEDIATE) !== 0);
  return final === 1 || final === 2;
}
