import { Patterns } from '@smsq/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../testing/dashboard-harness.js';
import { SettingsController } from './settings.controller.js';

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}-${Date.now()}@example.test`;

describe(SettingsController.name, () => {
  let dashboard: TestDashboard;

  beforeAll(async () => {
    dashboard = await startTestDashboard('dashboard_settings');
    dashboard.services.dispatch.on(Patterns.dispatch.webhookList, ({ clientId }) => [
      { id: 1, clientId, url: 'https://hooks.example.test/', events: ['task.sent'], active: true, disabledReason: null, createdAt: '2026-11-22T10:00:00.000Z' },
    ]);
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('shows the client’s time zone and changes it through the gateway; every page then uses the new one', async () => {
    const browser = dashboard.browser();
    const clientId = (await browser.signUp(uniqueEmail('zone'))).body.user.clientId as number;
    expect((await browser.get('/api/settings')).body).toEqual({ clientName: expect.any(String), timeZone: 'Europe/Belgrade' });

    const changed = await browser.send('PUT', '/api/settings/time-zone', { timeZone: ' America/New_York ' });

    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ clientName: expect.any(String), timeZone: 'America/New_York' });
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.clientSetTimezone)).toContainEqual({ clientId, timezone: 'America/New_York' });
    expect((await browser.get('/api/settings')).body.timeZone).toBe('America/New_York');
    expect((await browser.get('/api/webhooks')).body.endpoints[0].timeZone).toBe('America/New_York');
  });

  it('follows a change made elsewhere (the admin command line, another dashboard) from the next request on', async () => {
    const browser = dashboard.browser();
    const clientId = (await browser.signUp(uniqueEmail('elsewhere'))).body.user.clientId as number;
    expect((await browser.get('/api/webhooks')).body.endpoints[0].timeZone).toBe('Europe/Belgrade');

    await dashboard.services.gateway.send(Patterns.gateway.clientSetTimezone, { clientId, timezone: 'Asia/Tokyo' });

    expect((await browser.get('/api/webhooks')).body.endpoints[0].timeZone).toBe('Asia/Tokyo');
  });

  it('refuses a name that is not a time zone, and keeps the zone', async () => {
    const browser = dashboard.browser();
    await browser.signUp(uniqueEmail('bad'));

    for (const timeZone of ['Mars/Olympus', '', 'x'.repeat(65)]) {
      const refused = await browser.send('PUT', '/api/settings/time-zone', { timeZone });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_request');
    }
    expect((await browser.get('/api/settings')).body.timeZone).toBe('Europe/Belgrade');
  });

  it('is for a signed-in client user only', async () => {
    const stranger = dashboard.browser();
    await stranger.session();

    expect((await stranger.get('/api/settings')).status).toBe(401);
    expect((await stranger.send('PUT', '/api/settings/time-zone', { timeZone: 'UTC' })).status).toBe(401);
  });
});
