import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingDatabase } from '../database/billing-database.js';
import {
  backdatePeriod,
  billingServices,
  deadlineAhead,
  nextClientId,
  openBillingTestDatabase,
  testBillingConfig,
  type BillingServices,
} from '../testing/billing-harness.js';
import { AccountsService } from './accounts.service.js';

const DAY = 86_400;

describe(AccountsService.name, () => {
  let close: () => Promise<void>;
  let database: BillingDatabase;
  let profileA: BillingServices;
  let profileB: BillingServices;

  beforeAll(async () => {
    const opened = await openBillingTestDatabase('billing_accounts');
    ({ database, close } = opened);
    profileA = billingServices(database, testBillingConfig({ profile: 'A', dailyPeriodS: DAY }));
    profileB = billingServices(database, testBillingConfig({ profile: 'B', dailyPeriodS: DAY }));
  });

  afterAll(() => close());

  const debit = (services: BillingServices, clientId: number) =>
    services.charges.debit({ clientId, taskKey: randomUUID(), deadline: deadlineAhead() });

  describe('open', () => {
    it('opens a Profile A account with the daily allowance of its plan, recorded as the opening', async () => {
      const clientId = nextClientId();
      const before = Date.now();

      const view = await profileA.accounts.open({ clientId, plan: 'basic' });

      expect(view).toMatchObject({ clientId, plan: 'basic', dailyAllowance: 2_500, phoneLimit: 3, dailyRemaining: 2_500, bonusRemaining: 0, creditsRemaining: 2_500 });
      const periodEndsAt = Date.parse(view.periodEndsAt ?? '');
      expect(periodEndsAt).toBeGreaterThanOrEqual(before + DAY * 1_000);
      expect(periodEndsAt).toBeLessThanOrEqual(Date.now() + DAY * 1_000);
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { opening: 2_500 } });
    });

    it('is idempotent and sets the plan only when it creates the account', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId, plan: 'basic' });
      await debit(profileA, clientId);

      const again = await profileA.accounts.open({ clientId, plan: 'pro' });

      expect(again).toMatchObject({ plan: 'basic', dailyAllowance: 2_500, dailyRemaining: 2_499 });
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { opening: 2_500 } });
    });

    it('opens one account when the same client is opened many times at once', async () => {
      const clientId = nextClientId();

      await Promise.all(Array.from({ length: 10 }, () => profileA.accounts.open({ clientId })));

      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { opening: 30 }, balance: 30 });
    });

    it('opens a Profile B account with 10 persistent credits and no period', async () => {
      const clientId = nextClientId();

      const view = await profileB.accounts.open({ clientId });

      expect(view).toEqual({
        clientId,
        plan: 'free',
        dailyAllowance: 30,
        phoneLimit: 2,
        dailyRemaining: 0,
        bonusRemaining: 10,
        creditsRemaining: 10,
        periodEndsAt: null,
      });
    });
  });

  describe('show', () => {
    it('Profile B: credits never refill, however long ago the period began', async () => {
      const clientId = nextClientId();
      await profileB.accounts.open({ clientId });
      await debit(profileB, clientId);
      await backdatePeriod(database, clientId, DAY * 10);

      await expect(profileB.accounts.show({ clientId })).resolves.toMatchObject({ bonusRemaining: 9, dailyRemaining: 0, creditsRemaining: 9 });
      await expect(profileB.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { refills: 0 } });
    });

    it('Profile A: the first read after the period ended starts a new one with the daily bucket full', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId });
      for (let index = 0; index < 4; index += 1) await debit(profileA, clientId);
      await backdatePeriod(database, clientId, DAY + 5);
      const before = Date.now();

      const view = await profileA.accounts.show({ clientId });

      expect(view).toMatchObject({ dailyRemaining: 30, creditsRemaining: 30 });
      expect(Date.parse(view.periodEndsAt ?? '')).toBeGreaterThanOrEqual(before + DAY * 1_000);
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { refills: 4 } });
    });

    it('shows several accounts at once, in the order asked, each as show gives it', async () => {
      const [refilled, spent, basic] = [nextClientId(), nextClientId(), nextClientId()];
      for (const clientId of [refilled, spent]) await profileA.accounts.open({ clientId });
      await profileA.accounts.open({ clientId: basic, plan: 'basic' });
      await debit(profileA, refilled);
      await debit(profileA, spent);
      await backdatePeriod(database, refilled, DAY + 5);

      const views = await profileA.accounts.showMany({ clientIds: [basic, refilled, spent] });

      expect(views.map(({ clientId, plan, creditsRemaining }) => ({ clientId, plan, creditsRemaining }))).toEqual([
        { clientId: basic, plan: 'basic', creditsRemaining: 2_500 },
        { clientId: refilled, plan: 'free', creditsRemaining: 30 },
        { clientId: spent, plan: 'free', creditsRemaining: 29 },
      ]);
      await expect(profileA.accounts.showMany({ clientIds: [] })).resolves.toEqual([]);
    });
  });

  describe('grant', () => {
    it('adds bonus credits that survive the next refill', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId });

      await expect(profileA.accounts.grant({ clientId, amount: 50 })).resolves.toMatchObject({ bonusRemaining: 50, creditsRemaining: 80 });
      await backdatePeriod(database, clientId, DAY);

      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 30, bonusRemaining: 50, creditsRemaining: 80 });
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { grants: 50, refills: 0 } });
    });

    it('Profile B: adds to the persistent credits', async () => {
      const clientId = nextClientId();

      await expect(profileB.accounts.grant({ clientId, amount: 5 })).resolves.toMatchObject({ bonusRemaining: 15, creditsRemaining: 15 });
    });
  });

  describe('setPlan', () => {
    it('applies the phone limit at once and the daily allowance from the next period', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId, plan: 'free' });
      await debit(profileA, clientId);

      await expect(profileA.accounts.setPlan({ clientId, plan: 'standard' })).resolves.toEqual({ clientId, plan: 'standard', dailyAllowance: 5_000, phoneLimit: 5 });
      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ plan: 'standard', phoneLimit: 5, dailyRemaining: 29 });

      await backdatePeriod(database, clientId, DAY);
      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 5_000, creditsRemaining: 5_000 });
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { refills: 4_971 } });
    });

    it('does not roll an ended period itself, so the new allowance is what the next period starts with', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId, plan: 'free' });
      await backdatePeriod(database, clientId, DAY * 2);

      await profileA.accounts.setPlan({ clientId, plan: 'starter' });

      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 1_000 });
    });

    it('downgrades from the next period, recording a negative refill', async () => {
      const clientId = nextClientId();
      await profileA.accounts.open({ clientId, plan: 'pro' });
      await profileA.accounts.setPlan({ clientId, plan: 'free' });
      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 10_000, phoneLimit: 2 });

      await backdatePeriod(database, clientId, DAY);

      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyRemaining: 30 });
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { refills: -9_970 } });
    });

    it('opens a client that had no account yet directly on the new terms', async () => {
      const clientId = nextClientId();

      await profileA.accounts.setPlan({ clientId, plan: 'enterprise', daily: 70_000, phones: 80 });

      await expect(profileA.accounts.show({ clientId })).resolves.toMatchObject({ dailyAllowance: 70_000, phoneLimit: 80, dailyRemaining: 70_000 });
      await expect(profileA.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { opening: 70_000 } });
    });

    it('takes custom numbers for enterprise only', async () => {
      const clientId = nextClientId();

      await expect(profileA.accounts.setPlan({ clientId, plan: 'pro', daily: 20_000 })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(profileA.accounts.setPlan({ clientId, plan: 'enterprise' })).resolves.toMatchObject({ dailyAllowance: 50_000, phoneLimit: 50 });
      await expect(profileA.accounts.setPlan({ clientId, plan: 'enterprise', daily: 75_000, phones: 60 })).resolves.toMatchObject({
        dailyAllowance: 75_000,
        phoneLimit: 60,
      });
    });
  });
});
