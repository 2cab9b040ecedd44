import { ConflictError, NotFoundError, Patterns, pingPattern, UnavailableError, type PhoneDetails } from '@smsq/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../testing/dashboard-harness.js';
import type { TestBrowser } from '../testing/test-browser.js';
import { AdminUsersController } from '../users/admin-users.controller.js';
import { AdminAreaController } from './admin-area.controller.js';

const ADMIN_PASSWORD = 'an admin password';

describe(AdminAreaController.name, () => {
  let dashboard: TestDashboard;
  let admin: TestBrowser;
  let adminEmail: string;
  let billingDown = false;

  beforeAll(async () => {
    dashboard = await startTestDashboard('dashboard_admin_area');
    adminEmail = `root-${Date.now()}@example.test`;
    // As `npm run admin -- admin create` reaches it: the RMQ handler of dashboard.admin.create.v1.
    await dashboard.app.get(AdminUsersController).createAdmin({ email: adminEmail.toUpperCase(), password: ADMIN_PASSWORD });
    admin = dashboard.browser();
    const { dispatch, gateway, billing, inbox } = dashboard.services;
    dispatch
      .on(Patterns.dispatch.taskDailyStats, ({ days }) => Array.from({ length: days }, () => ({ day: '2026-11-22', sent: 0, failed: 0, pending: 0 })))
      .on(Patterns.dispatch.systemStats, () => ({ tasksByStatus: { pending: 1, claimed: 2, sent: 3, failed: 4 }, sentPerMinute: [{ minute: '2026-11-22T10:00:00.000Z', sent: 3 }] }))
      .on(pingPattern('dispatch'), () => ({ ok: true }));
    gateway
      .on(Patterns.gateway.keyList, () => [])
      .on(Patterns.gateway.keyCreate, ({ clientId }) => ({ keyId: 9, prefix: 'smsq_key_abcd', apiKey: `smsq_key_for${clientId}` }))
      .on(Patterns.gateway.keyRevoke, ({ keyId }) => {
        if (keyId !== 9) throw new NotFoundError('key');
        return { ok: true };
      })
      .on(Patterns.gateway.workerTokenList, () => [{ id: 4, phoneId: null, prefix: 'smsq_wkr_abcd', createdAt: '2026-11-22T09:00:00.000Z', lastUsedAt: null, revokedAt: null }])
      .on(Patterns.gateway.workerTokenCreate, ({ phoneId }) => ({ tokenId: 5, prefix: 'smsq_wkr_efgh', workerToken: `smsq_wkr_raw${phoneId ?? ''}` }))
      .on(pingPattern('gateway'), () => ({ ok: true }));
    billing
      .on(Patterns.billing.accountsShow, ({ clientIds }: { clientIds: number[] }) => {
        if (billingDown) throw new UnavailableError('the billing service did not answer; retry later');
        return clientIds.map((clientId) => ({ clientId, plan: 'starter', creditsRemaining: 100 + clientId }));
      })
      .on(Patterns.billing.creditsGrant, ({ clientId, amount }) => ({ clientId, creditsRemaining: 30 + amount }))
      .on(Patterns.billing.planSet, ({ clientId, plan }) => ({ clientId, plan, dailyAllowance: 1000, phoneLimit: 2 }))
      .on(pingPattern('billing'), () => {
        throw new UnavailableError('the billing service did not answer; retry later');
      });
    inbox.on(pingPattern('inbox'), () => ({ ok: true }));
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('lets the admin made by `admin create` sign in; the same address again is a conflict', async () => {
    const signedIn = await admin.signIn(adminEmail, ADMIN_PASSWORD);

    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toEqual({ id: expect.any(Number), email: adminEmail, role: 'admin', clientId: null });
    await expect(dashboard.app.get(AdminUsersController).createAdmin({ email: adminEmail, password: ADMIN_PASSWORD })).rejects.toBeInstanceOf(ConflictError);
  });

  it('has no client pages for an admin without a client', async () => {
    expect((await admin.get('/api/overview')).status).toBe(404);
  });

  it('creates a client with its user, who can then sign in as that client', async () => {
    const email = `managed-${Date.now()}@example.test`;

    const created = await admin.send('POST', '/api/admin/clients', { name: 'Managed Ltd', plan: 'starter', timezone: 'Europe/London', email, password: 'a client password' });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Managed Ltd', timezone: 'Europe/London', createdAt: expect.any(String), disabledAt: null });
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.clientCreate).at(-1)).toEqual({ name: 'Managed Ltd', plan: 'starter', timezone: 'Europe/London' });
    const user = await dashboard.browser().signIn(email, 'a client password');
    expect(user.body.user).toMatchObject({ role: 'client', clientId: created.body.id });
    expect((await admin.send('POST', '/api/admin/clients', { name: 'Half', email: 'half@example.test' })).status).toBe(400);
  });

  it('lists clients with plan, credits and status (disabled or not), and still lists them when billing does not answer', async () => {
    const { body: listed } = await admin.send('POST', '/api/admin/clients', { name: 'Listed Co' });

    const page = await admin.get('/api/admin/clients');

    expect(page.status).toBe(200);
    expect(page.body.items.find((row: { id: number }) => row.id === listed.id)).toEqual({ ...listed, plan: 'starter', creditsRemaining: 100 + listed.id });
    expect(dashboard.services.billing.payloadsOf(Patterns.billing.accountsShow).at(-1)).toEqual({ clientIds: page.body.items.map((row: { id: number }) => row.id) });
    billingDown = true;
    try {
      const without = await admin.get('/api/admin/clients');
      expect(without.status).toBe(200);
      expect(without.body.items.find((row: { id: number }) => row.id === listed.id)).toMatchObject({ name: 'Listed Co', plan: null, creditsRemaining: null });
    } finally {
      billingDown = false;
    }
  });

  it('shows a client with keys and chart, grants credits, sets the plan, creates and revokes keys', async () => {
    const { body: client } = await admin.send('POST', '/api/admin/clients', { name: 'Detail Co' });

    const detail = await admin.get(`/api/admin/clients/${client.id}`);
    const granted = await admin.send('POST', `/api/admin/clients/${client.id}/credits`, { amount: 50 });
    const plan = await admin.send('PUT', `/api/admin/clients/${client.id}/plan`, { plan: 'starter' });
    const key = await admin.send('POST', `/api/admin/clients/${client.id}/keys`);
    const revoked = await admin.send('DELETE', '/api/admin/keys/9');
    const unknownKey = await admin.send('DELETE', '/api/admin/keys/10');
    const unknownClient = await admin.get('/api/admin/clients/999');
    const grantUnknown = await admin.send('POST', '/api/admin/clients/999/credits', { amount: 5 });

    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ client, plan: 'free', phoneLimit: 2, keys: [] });
    expect(detail.body.days).toHaveLength(30);
    expect(granted.status).toBe(200);
    expect(dashboard.services.billing.payloadsOf(Patterns.billing.creditsGrant)).toEqual([{ clientId: client.id, amount: 50 }]);
    expect(plan.status).toBe(200);
    expect(dashboard.services.billing.payloadsOf(Patterns.billing.planSet)).toEqual([{ clientId: client.id, plan: 'starter' }]);
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ id: 9, apiKey: `smsq_key_for${client.id}` });
    expect(revoked.status).toBe(204);
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.keyRevoke)).toContainEqual({ keyId: 9 });
    expect(unknownKey.status).toBe(404);
    expect(unknownClient.status).toBe(404);
    expect(grantUnknown.status).toBe(404);
  });

  it('lists, creates and revokes worker tokens', async () => {
    const list = await admin.get('/api/admin/worker-tokens');
    const created = await admin.send('POST', '/api/admin/worker-tokens', { phoneId: 3 });

    expect(list.body).toEqual([{ id: 4, phoneId: null, prefix: 'smsq_wkr_abcd', createdAt: '2026-11-22T09:00:00.000Z', lastUsedAt: null, revokedAt: null }]);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 5, prefix: 'smsq_wkr_efgh', workerToken: 'smsq_wkr_raw3' });
  });

  it('has no gateway pages in Profile A', async () => {
    expect((await admin.get('/api/admin/gateways')).status).toBe(404);
    expect((await admin.send('POST', '/api/admin/gateways/1/resume')).status).toBe(404);
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.phoneResume)).toEqual([]);
  });

  it('shows task counts and which services answer their ping', async () => {
    const response = await admin.get('/api/admin/system');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      tasksByStatus: { pending: 1, claimed: 2, sent: 3, failed: 4 },
      sentPerMinute: [{ minute: '2026-11-22T10:00:00.000Z', sent: 3 }],
      services: [
        { name: 'gateway', ready: true, detail: 'ok' },
        { name: 'billing', ready: false, detail: 'the billing service did not answer; retry later' },
        { name: 'dispatch', ready: true, detail: 'ok' },
        { name: 'inbox', ready: true, detail: 'ok' },
      ],
    });
  });
});

/** Profile B: pooled gateways, each shown in its VIP client's time zone, a shared one in the service's. */
describe(`${AdminAreaController.name} in Profile B`, () => {
  let dashboard: TestDashboard;
  let admin: TestBrowser;

  function gateway(id: number, clientId: number | null): PhoneDetails {
    return { id, kind: 'gateway', clientId, name: `gw ${id}`, url: `http://gw${id}.test`, deviceId: null, active: true, createdAt: '2026-11-22T09:00:00.000Z', lastSeenAt: '2026-11-22T10:00:00.000Z', health: null, lastAssignedAt: null, sentToday: 0, state: 'online', lastContactAt: '2026-11-22T10:00:00.000Z', dailyLimit: null, perMinute: null, monthlyRecipients: null, jitter: null, sims: 1, partsToday: 0, recipientsThisMonth: 0, pausedUntil: null, pauseReason: null, waitingTasks: 0, number: null };
  }

  beforeAll(async () => {
    dashboard = await startTestDashboard('dashboard_admin_area_b', { profile: 'B', defaultTimeZone: 'Asia/Tokyo' });
    const email = `root-b-${Date.now()}@example.test`;
    await dashboard.app.get(AdminUsersController).createAdmin({ email, password: ADMIN_PASSWORD });
    admin = dashboard.browser();
    await admin.signIn(email, ADMIN_PASSWORD);
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('lists gateways with the time zone their times are shown in', async () => {
    const { body: client } = await admin.send('POST', '/api/admin/clients', { name: 'VIP Co', timezone: 'America/New_York' });
    dashboard.services.dispatch.on(Patterns.dispatch.phoneList, () => [gateway(1, client.id), gateway(2, null), gateway(3, 999)]);

    const response = await admin.get('/api/admin/gateways');

    expect(response.status).toBe(200);
    expect(response.body.map((row: { id: number; timeZone: string }) => [row.id, row.timeZone])).toEqual([
      [1, 'America/New_York'],
      [2, 'Asia/Tokyo'],
      [3, 'Asia/Tokyo'],
    ]);
  });

  it('shows each gateway’s state, last contact and limits, and sets its limits in the service’s zone; bad values are 400 naming the field', async () => {
    const gateways = [{ ...gateway(5, null), state: 'silent' as const, waitingTasks: 3 }];
    dashboard.services.dispatch
      .on(Patterns.dispatch.phoneList, () => gateways)
      .on(Patterns.dispatch.phoneSetLimits, (command) => {
        const row = gateways.find((candidate) => candidate.id === command.phoneId && command.kind === 'gateway');
        if (!row) throw new NotFoundError('gateway');
        for (const field of ['dailyLimit', 'perMinute', 'monthlyRecipients', 'jitter', 'sims'] as const) if (field in command) Object.assign(row, { [field]: command[field] });
        return row;
      });

    const listed = await admin.get('/api/admin/gateways');
    const set = await admin.send('PATCH', '/api/admin/gateways/5', { dailyLimit: 1000, perMinute: 30, monthlyRecipients: 250, jitter: 5, sims: 2 });
    const bad = await admin.send('PATCH', '/api/admin/gateways/5', { perMinute: -4 });
    const nothing = await admin.send('PATCH', '/api/admin/gateways/5', {});

    expect(listed.body).toEqual([expect.objectContaining({ id: 5, state: 'silent', lastContactAt: '2026-11-22T10:00:00.000Z', dailyLimit: null, perMinute: null, monthlyRecipients: null, jitter: null, sims: 1, partsToday: 0, recipientsThisMonth: 0, pausedUntil: null, pauseReason: null, waitingTasks: 3 })]);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: 5, dailyLimit: 1000, perMinute: 30, monthlyRecipients: 250, jitter: 5, sims: 2, active: true });
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.phoneSetLimits)).toEqual([{ phoneId: 5, kind: 'gateway', dailyLimit: 1000, perMinute: 30, monthlyRecipients: 250, jitter: 5, sims: 2 }]);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining('perMinute must be a whole number from 1 to 100000') });
    expect(nothing.status).toBe(400);
    expect(nothing.body.detail).toBe('give active, number or a limit (dailyLimit, perMinute, monthlyRecipients, jitter, sims)');
  });

  it('shows a gateway paused by the carrier’s word, with until when and why, and lifts the pause at once; an unknown gateway is 404', async () => {
    const gateways = [{ ...gateway(6, null), pausedUntil: '2026-11-22T13:35:00.000Z', pauseReason: 'carrier_volume' as const, partsToday: 180, recipientsThisMonth: 42 }];
    dashboard.services.dispatch.on(Patterns.dispatch.phoneList, () => gateways).on(Patterns.dispatch.phoneResume, (command) => {
      const row = gateways.find((candidate) => candidate.id === command.phoneId && command.kind === 'gateway');
      if (!row) throw new NotFoundError('gateway');
      return Object.assign(row, { pausedUntil: null, pauseReason: null });
    });

    const listed = await admin.get('/api/admin/gateways');
    const resumed = await admin.send('POST', '/api/admin/gateways/6/resume');
    const unknown = await admin.send('POST', '/api/admin/gateways/7/resume');

    expect(listed.body).toEqual([expect.objectContaining({ id: 6, pausedUntil: '2026-11-22T13:35:00.000Z', pauseReason: 'carrier_volume', partsToday: 180, recipientsThisMonth: 42, timeZone: 'Asia/Tokyo' })]);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: 6, pausedUntil: null, pauseReason: null });
    expect(unknown.status).toBe(404);
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.phoneResume)).toEqual([
      { phoneId: 6, kind: 'gateway' },
      { phoneId: 7, kind: 'gateway' },
    ]);
  });
});
