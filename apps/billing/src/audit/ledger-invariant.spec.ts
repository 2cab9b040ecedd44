import { describe, expect, it } from 'vitest';
import { auditLedger, type AuditedCharge, type AuditedEntry, type LedgerAuditInput } from './ledger-invariant.js';

const T1 = '00000000-0000-4000-8000-000000000001';
const T2 = '00000000-0000-4000-8000-000000000002';

function entry(id: number, fields: Omit<AuditedEntry, 'id' | 'taskKey'> & { taskKey?: string }): AuditedEntry {
  return { id: BigInt(id), taskKey: null, ...fields };
}

/** Opening 30, two debits, a grant, a refill, one refund: daily 30, bonus 5. */
function consistentLedger(): LedgerAuditInput {
  const entries: AuditedEntry[] = [
    entry(1, { kind: 'opening', bucket: 'daily', amount: 30, balanceAfter: 30 }),
    entry(2, { kind: 'debit', bucket: 'daily', amount: -1, taskKey: T1, balanceAfter: 29 }),
    entry(3, { kind: 'debit', bucket: 'daily', amount: -1, taskKey: T2, balanceAfter: 28 }),
    entry(4, { kind: 'grant', bucket: 'bonus', amount: 5, balanceAfter: 33 }),
    entry(5, { kind: 'refill', bucket: 'daily', amount: 2, balanceAfter: 35 }),
    entry(6, { kind: 'refund', bucket: 'daily', amount: 1, taskKey: T1, balanceAfter: 36 }),
  ];
  const charges: AuditedCharge[] = [
    { taskKey: T1, bucket: 'daily', state: 'refunded' },
    { taskKey: T2, bucket: 'daily', state: 'kept' },
  ];
  return { clientId: 1, balances: { dailyRemaining: 31, bonusRemaining: 5 }, entries, charges };
}

describe(auditLedger.name, () => {
  it('passes a ledger whose entries add up to the balance', () => {
    const sut = auditLedger(consistentLedger());

    expect(sut.violations).toEqual([]);
    expect(sut.ok).toBe(true);
    expect(sut.totals).toEqual({ opening: 30, grants: 5, refills: 2, debits: 2, refunds: 1 });
    expect(sut.balance).toBe(36);
  });

  it('reads entries in id order whatever order they come in', () => {
    const input = consistentLedger();

    expect(auditLedger({ ...input, entries: [...input.entries].reverse() }).ok).toBe(true);
  });

  it('finds a balance the ledger does not add up to', () => {
    const sut = auditLedger({ ...consistentLedger(), balances: { dailyRemaining: 32, bonusRemaining: 5 } });

    expect(sut.ok).toBe(false);
    expect(sut.violations.join('\n')).toMatch(/= 36, but the balance is 37/);
  });

  it('finds a second debit of one task', () => {
    const input = consistentLedger();
    const entries = [...input.entries, entry(7, { kind: 'debit', bucket: 'daily', amount: -1, taskKey: T2, balanceAfter: 35 })];

    expect(auditLedger({ ...input, entries, balances: { dailyRemaining: 30, bonusRemaining: 5 } }).violations).toContain(
      `task ${T2} has more than one debit`,
    );
  });

  it('finds a refund into another bucket than the debit', () => {
    const input = consistentLedger();
    const entries = input.entries.map((e) => (e.kind === 'refund' ? { ...e, bucket: 'bonus' as const } : e));

    const sut = auditLedger({ ...input, entries, balances: { dailyRemaining: 30, bonusRemaining: 6 } });

    expect(sut.violations).toContain(`task ${T1} was debited from daily but refunded to bonus`);
  });

  it('finds a bucket that went negative on the way', () => {
    const entries = [
      entry(1, { kind: 'opening', bucket: 'bonus', amount: 0, balanceAfter: 0 }),
      entry(2, { kind: 'debit', bucket: 'bonus', amount: -1, taskKey: T1, balanceAfter: -1 }),
      entry(3, { kind: 'grant', bucket: 'bonus', amount: 1, balanceAfter: 0 }),
    ];
    const sut = auditLedger({ clientId: 1, balances: { dailyRemaining: 0, bonusRemaining: 0 }, entries, charges: [{ taskKey: T1, bucket: 'bonus', state: 'kept' }] });

    expect(sut.violations).toEqual(['entry 2: the bonus bucket went negative (-1)']);
  });

  it('finds a charge whose state disagrees with the refunds', () => {
    const input = consistentLedger();
    const charges = input.charges.map((c) => ({ ...c, state: 'held' as const }));

    expect(auditLedger({ ...input, charges }).violations).toEqual([`task ${T1} is held but has refund entry`]);
  });

  it('finds a debit without a charge', () => {
    const input = consistentLedger();

    expect(auditLedger({ ...input, charges: input.charges.slice(0, 1) }).violations).toEqual([`task ${T2} has a debit but no charge`]);
  });

  it('finds a wrong balance_after', () => {
    const input = consistentLedger();
    const entries = input.entries.map((e) => (e.id === 4n ? { ...e, balanceAfter: 34 } : e));

    expect(auditLedger({ ...input, entries }).violations).toEqual(['entry 4: balance_after 34, the ledger sums to 33']);
  });

  it('finds an opening that is not the first entry', () => {
    const input = consistentLedger();
    const entries = input.entries.map((e) => (e.id === 1n ? { ...e, id: 10n } : e));

    expect(auditLedger({ ...input, entries }).ok).toBe(false);
  });
});
