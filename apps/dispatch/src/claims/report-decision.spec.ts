import { describe, expect, it } from 'vitest';
import { decideReport, outcomeOf, type ReportedTask } from './report-decision.js';

const HOLDER = 11;
const OTHER = 12;
const KEY = '3f7c1a52-8d0e-4b7a-9c51-2e6f0d9b4a11';

function task(overrides: Partial<ReportedTask> = {}): ReportedTask {
  return { id: 5, taskKey: KEY, clientId: 3, phoneId: 4, recipient: '+381641234567', sim: null, pinned: false, attempts: 1, status: 'claimed', claimedByTokenId: HOLDER, deliveredAt: null, ...overrides };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe(decideReport.name, () => {
  it('applies the holder’s outcome to a claimed task', () => {
    expect(decideReport(task(), HOLDER, 'sent')).toEqual({ apply: 'sent', taskKey: KEY });
    expect(decideReport(task(), HOLDER, 'failed')).toEqual({ apply: 'failed', taskKey: KEY });
  });

  it('hides the task from any token that does not hold it, and an unknown id alike', () => {
    expect(codeOf(() => decideReport(task(), OTHER, 'sent'))).toBe('not_found');
    expect(codeOf(() => decideReport(task({ status: 'sent' }), OTHER, 'sent'))).toBe('not_found');
    expect(codeOf(() => decideReport(null, HOLDER, 'sent'))).toBe('not_found');
  });

  it('answers a repeat of the same final outcome as the first, changing nothing', () => {
    expect(decideReport(task({ status: 'sent' }), HOLDER, 'sent')).toEqual({ repeat: { id: 5, status: 'sent' } });
    expect(decideReport(task({ status: 'failed' }), HOLDER, 'failed')).toEqual({ repeat: { id: 5, status: 'failed' } });
  });

  it('refuses a different outcome for a final task as a conflict', () => {
    expect(codeOf(() => decideReport(task({ status: 'sent' }), HOLDER, 'failed'))).toBe('conflict');
    expect(codeOf(() => decideReport(task({ status: 'failed' }), HOLDER, 'sent'))).toBe('conflict');
  });

  it('hides a released task, which has no holder, from its former poller', () => {
    expect(codeOf(() => decideReport(task({ status: 'pending', claimedByTokenId: null }), HOLDER, 'sent'))).toBe('not_found');
  });

  it('takes the late report of the holder whose lease ran out while nobody claimed the task again', () => {
    expect(decideReport(task({ status: 'pending' }), HOLDER, 'sent')).toEqual({ apply: 'sent', taskKey: KEY });
    expect(codeOf(() => decideReport(task({ status: 'pending' }), HOLDER + 1, 'sent'))).toBe('not_found');
  });

  describe('a delivery report', () => {
    const DELIVERED_AT = new Date('2026-11-22T10:00:00.000Z');

    it('sends a task its holder still holds, or holds again after its lease ran out', () => {
      expect(decideReport(task(), HOLDER, 'delivered')).toEqual({ apply: 'delivered', taskKey: KEY });
      expect(decideReport(task({ status: 'pending' }), HOLDER, 'delivered')).toEqual({ apply: 'delivered', taskKey: KEY });
    });

    it('is added once to a sent task; a repeat changes nothing and is answered sent', () => {
      expect(decideReport(task({ status: 'sent' }), HOLDER, 'delivered')).toEqual({ apply: 'delivered', taskKey: KEY });
      expect(decideReport(task({ status: 'sent', deliveredAt: DELIVERED_AT }), HOLDER, 'delivered')).toEqual({ repeat: { id: 5, status: 'sent' } });
    });

    it('is followed by a late sent report as a harmless repeat', () => {
      expect(decideReport(task({ status: 'sent', deliveredAt: DELIVERED_AT }), HOLDER, 'sent')).toEqual({ repeat: { id: 5, status: 'sent' } });
    });

    it('contradicts a failed task, and a failure contradicts a delivered one', () => {
      expect(codeOf(() => decideReport(task({ status: 'failed' }), HOLDER, 'delivered'))).toBe('conflict');
      expect(codeOf(() => decideReport(task({ status: 'sent', deliveredAt: DELIVERED_AT }), HOLDER, 'failed'))).toBe('conflict');
    });

    it('is hidden from a token that does not hold the task', () => {
      expect(codeOf(() => decideReport(task(), OTHER, 'delivered'))).toBe('not_found');
      expect(codeOf(() => decideReport(task({ status: 'sent' }), OTHER, 'delivered'))).toBe('not_found');
      expect(codeOf(() => decideReport(task({ status: 'failed' }), OTHER, 'delivered'))).toBe('not_found');
    });

    it('leaves the task sent', () => {
      expect(outcomeOf('delivered')).toBe('sent');
      expect(outcomeOf('sent')).toBe('sent');
      expect(outcomeOf('failed')).toBe('failed');
    });
  });
});
