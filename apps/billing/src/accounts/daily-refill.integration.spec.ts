import { randomUUID } from 'node:crypto';
import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingDatabase } from '../database/billing-database.js';
import {
  billingServices,
  deadlineAhead,
  nextClientId,
  openBillingTestDatabase,
  testBillingConfig,
  type BillingServices,
} from '../testing/billing-harness.js';
import { AccountTransactions } from './account-transactions.js';

/** Real periods of one second: what a client sees as days pass. */
describe(`${AccountTransactions.name} daily refill`, () => {
  let close: () => Promise<void>;
  let database: BillingDatabase;
  let sut: BillingServices;

  beforeAll(async () => {
    const opened = await openBillingTestDatabase('billing_refill');
    ({ database, close } = opened);
    sut = billingServices(database, testBillingConfig({ profile: 'A', dailyPeriodS: 1 }));
  });

  afterAll(() => close());

  const debit = (clientId: number) => sut.charges.debit({ clientId, taskKey: randomUUID(), deadline: deadlineAhead() });
  const refillsOf = (clientId: number) => database.ledgerEntry.findMany({ where: { clientId, kind: 'refill' }, orderBy: { id: 'asc' } });

  it('sets the daily bucket back to the allowance without stacking, recording what it added', async () => {
    const clientId = nextClientId();
    await sut.accounts.open({ clientId });
    const spent = await Promise.all([debit(clientId), debit(clientId), debit(clientId)]);
    const firstPeriodEnd = (await database.account.findUniqueOrThrow({ where: { clientId } })).periodStartedAt.getTime() + 1_000;

    const refilled = await eventually(async () => {
      const view = await sut.accounts.show({ clientId });
      expect(Date.parse(view.periodEndsAt ?? '')).toBeGreaterThan(firstPeriodEnd);
      return view;
    });

    expect(refilled).toMatchObject({ dailyRemaining: 30, creditsRemaining: 30 });
    const refills = await refillsOf(clientId);
    // A slow machine may pass more than one period before the debits land; the first refill tops up what was spent.
    expect(refills.reduce((sum, refill) => sum + refill.amount, 0)).toBe(spent.length);
    expect(refills.at(-1)).toMatchObject({ bucket: 'daily', balanceAfter: 30 });
    await expect(sut.audit.audit(clientId)).resolves.toMatchObject({ ok: true, balance: 30 });
  });

  it('adds no entry when a whole period passes untouched', async () => {
    const clientId = nextClientId();
    const opened = await sut.accounts.open({ clientId });

    await eventually(async () => {
      const view = await sut.accounts.show({ clientId });
      expect(view.periodEndsAt).not.toBe(opened.periodEndsAt);
    });

    await expect(sut.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 30 });
    expect(await refillsOf(clientId)).toEqual([]);
    await expect(sut.audit.audit(clientId)).resolves.toMatchObject({ ok: true });
  });

  it('returns a daily credit refunded after a refill to the current daily bucket', async () => {
    const clientId = nextClientId();
    const { taskKey } = await debit(clientId);
    const chargedIn = await sut.accounts.show({ clientId });

    await eventually(async () => {
      const view = await sut.accounts.show({ clientId });
      expect(view.periodEndsAt).not.toBe(chargedIn.periodEndsAt);
    });
    const refund = await sut.charges.refund({ taskKey, reason: 'task_failed' });

    expect(refund).toEqual({ taskKey, refunded: true, creditsRemaining: 31 });
    await expect(database.account.findUniqueOrThrow({ where: { clientId } })).resolves.toMatchObject({ dailyRemaining: 31 });
    await expect(sut.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { debits: 1, refunds: 1 } });
  });

  it('starts the new period on the first debit after the period ended', async () => {
    const clientId = nextClientId();
    await debit(clientId);
    const { periodStartedAt } = await database.account.findUniqueOrThrow({ where: { clientId } });
    // Waiting for a moment on the clock: reading the balance meanwhile would start the period itself.
    await eventually(() => expect(Date.now()).toBeGreaterThanOrEqual(periodStartedAt.getTime() + 1_000), { intervalMs: 20 });

    const later = await debit(clientId);

    expect(later).toMatchObject({ bucket: 'daily', creditsRemaining: 29 });
    const account = await database.account.findUniqueOrThrow({ where: { clientId } });
    expect(account.periodStartedAt.getTime()).toBeGreaterThan(periodStartedAt.getTime());
    await expect(sut.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { refills: 1, debits: 2 } });
  });
});
