import { describe, expect, it } from 'vitest';
import { wantsReceiptFor, wantsReceipts } from './receipt-wishes.js';

describe('receipt wishes (registered_delivery)', () => {
  it('asks for receipts with a final (1), failure-only (2) or intermediate (0x10) request, not without', () => {
    expect([0, 1, 2, 0x10, 0x11].map(wantsReceipts)).toEqual([false, true, true, true, true]);
  });

  it('gives ACCEPTD and DELIVRD to a final request, only failures to a failure-only one, ACCEPTD to an intermediate one', () => {
    const events = ['task.sent', 'task.delivered', 'task.failed', 'task.expired', 'task.cancelled'] as const;
    expect(events.map((event) => wantsReceiptFor(1, event))).toEqual([true, true, true, true, true]);
    expect(events.map((event) => wantsReceiptFor(2, event))).toEqual([false, false, true, true, true]);
    expect(events.map((event) => wantsReceiptFor(0x10, event))).toEqual([true, false, false, false, false]);
  });
});
