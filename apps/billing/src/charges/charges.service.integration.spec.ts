import { randomUUID } from 'node:crypto';
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
import { outcomeOf as outcomeOfDebit } from '@smsq/contracts';
import { ChargesService } from './charges.service.js';

describe(ChargesService.name, () => {
  let close: () => Promise<void>;
  let database: BillingDatabase;
  let profileA: BillingServices;
  let profileB: BillingServices;

  beforeAll(async () => {
    const opened = await openBillingTestDatabase('billing_charges');
    ({ database, close } = opened);
    profileA = billingServices(database, testBillingConfig({ profile: 'A' }));
    profileB = billingServices(database, testBillingConfig({ profile: 'B' }));
  });

  afterAll(() => close());

  const debit = (services: BillingServices, clientId: number, taskKey: string = randomUUID()) =>
    services.charges.debit({ clientId, taskKey, deadline: deadlineAhead() });

  async function expectLedgerHolds(services: BillingServices, clientId: number): Promise<void> {
    const report = await services.audit.audit(clientId);
    expect(report.violations).toEqual([]);
  }

  describe('debit', () => {
    it('opens the account of an unknown client with the defaults, then takes one credit', async () => {
      const clientId = nextClientId();
      const taskKey = randomUUID();

      const result = await profileA.charges.debit({ clientId, taskKey, deadline: deadlineAhead() });

      expect(result).toEqual({ taskKey, creditsRemaining: 29, bucket: 'daily' });
      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ plan: 'free', dailyRemaining: 29, bonusRemaining: 0 });
      const report = await profileA.audit.audit(clientId);
      expect(report.totals).toEqual({ opening: 30, grants: 0, refills: 0, debits: 1, refunds: 0 });
      expect(report.violations).toEqual([]);
    });

    it('charges one credit however often the same task key arrives at once', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId });
      const taskKey = randomUUID();

      const results = await Promise.all(Array.from({ length: 20 }, () => debit(profileA, clientId, taskKey)));

      expect(results).toEqual(Array.from({ length: 20 }, () => ({ taskKey, creditsRemaining: 29, bucket: 'daily' })));
      const report = await profileA.audit.audit(clientId);
      expect(report.totals.debits).toBe(1);
      expect(report.balance).toBe(29);
      expect(report.violations).toEqual([]);
    });

    it('answers a repeat with the balance as it is now, charging nothing more', async () => {
      const clientId = nextClientId();
      const first = await debit(profileA, clientId);
      await debit(profileA, clientId);

      const repeat = await debit(profileA, clientId, first.taskKey);

      expect(repeat).toEqual({ taskKey: first.taskKey, creditsRemaining: 28, bucket: 'daily' });
    });

    it('never overspends: 40 concurrent debits on 30 credits give exactly 30 charges', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId, plan: 'free' });

      const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => debit(profileA, clientId)));

      const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(succeeded).toHaveLength(30);
      expect(refused.map((outcome) => (outcome.reason as { code?: string }).code)).toEqual(Array.from({ length: 10 }, () => 'daily_limit_reached'));
      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 0, bonusRemaining: 0, creditsRemaining: 0 });
      await expectLedgerHolds(profileA, clientId);
    });

    it('spends bonus credits once the daily bucket is empty, then refuses with daily_limit_reached', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId });
      await profileA.accounts.grant({ clientId, amount: 2 });

      const buckets: string[] = [];
      for (let index = 0; index < 32; index += 1) buckets.push((await debit(profileA, clientId)).bucket);

      expect(buckets.slice(0, 30).every((bucket) => bucket === 'daily')).toBe(true);
      expect(buckets.slice(30)).toEqual(['bonus', 'bonus']);
      await expect(debit(profileA, clientId)).rejects.toMatchObject({ code: 'daily_limit_reached' });
      await expectLedgerHolds(profileA, clientId);
    });

    it('charges nothing for a debit past its deadline', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId });

      const late = profileA.charges.debit({ clientId, taskKey: randomUUID(), deadline: new Date(Date.now() - 1).toISOString() });

      await expect(late).rejects.toMatchObject({ code: 'unavailable' });
      const report = await profileA.audit.audit(clientId);
      expect(report.totals.debits).toBe(0);
      expect(report.balance).toBe(30);
    });

    it('still answers a late repeat of a debit that was charged in time', async () => {
      const clientId = nextClientId();
      const first = await debit(profileA, clientId);

      const lateRepeat = await profileA.charges.debit({ clientId, taskKey: first.taskKey, deadline: new Date(Date.now() - 1).toISOString() });

      expect(lateRepeat).toEqual(first);
    });

    it('refuses a task key already charged to another client', async () => {
      const first = await debit(profileA, nextClientId());

      await expect(debit(profileA, nextClientId(), first.taskKey)).rejects.toMatchObject({ code: 'conflict' });
    });

    it('Profile B: starts with 10 persistent credits, then refuses with insufficient_credits', async () => {
      const clientId = nextClientId();
      await expect(profileB.accounts.open({ clientId })).resolves.toMatchObject({ dailyRemaining: 0, bonusRemaining: 10, creditsRemaining: 10, periodEndsAt: null });

      const results = [];
      for (let index = 0; index < 10; index += 1) results.push(await debit(profileB, clientId));

      expect(results.map((result) => result.bucket)).toEqual(Array.from({ length: 10 }, () => 'bonus'));
      expect(results.at(-1)?.creditsRemaining).toBe(0);
      await expect(debit(profileB, clientId)).rejects.toMatchObject({ code: 'insufficient_credits' });
      const report = await profileB.audit.audit(clientId);
      expect(report.totals).toMatchObject({ opening: 10, debits: 10 });
      expect(report.violations).toEqual([]);
    });
  });

  describe('debitMany', () => {
    const command = (clientId: number, taskKey: string = randomUUID(), deadline = deadlineAhead()) => ({ clientId, taskKey, deadline });

    it('debits a batch over several clients in order, opening an unknown one, each item answered with its own balance', async () => {
      const known = nextClientId();
      const unknown = nextClientId();
      await profileB.accounts.open({ clientId: known });
      const batch = [command(known), command(unknown), command(known), command(unknown), command(known)];

      const outcomes = await profileB.charges.debitMany(batch);

      expect(outcomes.map((outcome) => outcome.ok && outcome.value.creditsRemaining)).toEqual([9, 9, 8, 8, 7]);
      expect(outcomes.map((outcome) => outcome.ok && outcome.value.taskKey)).toEqual(batch.map((item) => item.taskKey));
      for (const clientId of [known, unknown]) await expectLedgerHolds(profileB, clientId);
      await expect(profileB.audit.audit(known)).resolves.toMatchObject({ totals: { debits: 3 }, balance: 7 });
    });

    it('answers a repeat, a key twice in one batch and another client’s key as debit would, charging each key once', async () => {
      const clientId = nextClientId();
      const charged = await debit(profileA, clientId);
      const others = await debit(profileA, nextClientId());
      const twice = randomUUID();

      const outcomes = await profileA.charges.debitMany([
        command(clientId, charged.taskKey),
        command(clientId, twice),
        command(clientId, twice),
        command(clientId, others.taskKey),
      ]);

      expect(outcomes).toEqual([
        { ok: true, value: { taskKey: charged.taskKey, creditsRemaining: 29, bucket: 'daily' } },
        { ok: true, value: { taskKey: twice, creditsRemaining: 28, bucket: 'daily' } },
        { ok: true, value: { taskKey: twice, creditsRemaining: 28, bucket: 'daily' } },
        { ok: false, error: expect.objectContaining({ error: 'conflict' }) },
      ]);
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ totals: { debits: 2 }, balance: 28, violations: [] });
    });

    it('refuses what debit refuses, item by item: out of credits and past the deadline, charging nothing for them', async () => {
      const clientId = nextClientId();
      await profileB.accounts.open({ clientId });
      const late = command(clientId, randomUUID(), new Date(Date.now() - 1).toISOString());
      const batch = [late, ...Array.from({ length: 11 }, () => command(clientId))];

      const outcomes = await profileB.charges.debitMany(batch);

      expect(outcomes.map((outcome) => (outcome.ok ? 'debited' : outcome.error.error))).toEqual([
        'unavailable',
        ...Array.from({ length: 10 }, () => 'debited'),
        'insufficient_credits',
      ]);
      await expect(profileB.audit.audit(clientId)).resolves.toMatchObject({ totals: { debits: 10 }, balance: 0, violations: [] });
    });

    it('never overspends when batches and single debits of one client run at once', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId, plan: 'free' });

      const batches = Array.from({ length: 4 }, () => profileA.charges.debitMany(Array.from({ length: 8 }, () => command(clientId))));
      const singles = Array.from({ length: 8 }, () => outcomeOfDebit(debit(profileA, clientId)));
      const outcomes = [...(await Promise.all(batches)).flat(), ...(await Promise.all(singles))];

      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(30);
      expect(outcomes.filter((outcome) => !outcome.ok).map((outcome) => !outcome.ok && outcome.error.error)).toEqual(
        Array.from({ length: 10 }, () => 'daily_limit_reached'),
      );
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ totals: { debits: 30 }, balance: 0, violations: [] });
    });
  });

  describe('refund', () => {
    it('gives the credit back once, however many refunds arrive at once', async () => {
      const clientId = nextClientId();
      const { taskKey } = await debit(profileA, clientId);

      const results = await Promise.all(Array.from({ length: 20 }, () => profileA.charges.refund({ taskKey, reason: 'task_failed' })));

      expect(results.filter((result) => result.refunded)).toEqual([{ taskKey, refunded: true, creditsRemaining: 30 }]);
      expect(results.filter((result) => !result.refunded)).toHaveLength(19);
      const report = await profileA.audit.audit(clientId);
      expect(report.totals).toMatchObject({ debits: 1, refunds: 1 });
      expect(report.balance).toBe(30);
      expect(report.violations).toEqual([]);
    });

    it('returns a bonus credit to the bonus bucket and records the reason', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId });
      await profileA.accounts.grant({ clientId, amount: 1 });
      for (let index = 0; index < 30; index += 1) await debit(profileA, clientId);
      const { taskKey, bucket } = await debit(profileA, clientId);
      expect(bucket).toBe('bonus');

      await expect(profileA.charges.refund({ taskKey, reason: 'task_failed' })).resolves.toEqual({ taskKey, refunded: true, creditsRemaining: 1 });

      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 0, bonusRemaining: 1 });
      const refund = (await database.ledgerEntry.findMany({ where: { taskKey, kind: 'refund' } }))[0];
      expect(refund).toMatchObject({ bucket: 'bonus', amount: 1, reason: 'task_failed' });
      await expectLedgerHolds(profileA, clientId);
    });

    it('refunds nothing for a task key that was never charged', async () => {
      const taskKey = randomUUID();

      await expect(profileA.charges.refund({ taskKey, reason: 'task_failed' })).resolves.toEqual({ taskKey, refunded: false, creditsRemaining: null });
    });

    it('lets a refunded task key be debited again as a repeat only, not a second charge', async () => {
      const clientId = nextClientId();
      const { taskKey } = await debit(profileA, clientId);
      await profileA.charges.refund({ taskKey, reason: 'task_failed' });

      const repeat = await debit(profileA, clientId, taskKey);

      expect(repeat.creditsRemaining).toBe(30);
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ totals: { debits: 1, refunds: 1 }, ok: true });
    });
  });
});
