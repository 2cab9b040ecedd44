import { DEFAULT_STICKY_DAYS, isWindowOpen, nextWindowOpening, Patterns, weekMinutesOf, type SendingRulesGetQuery, type SendingRulesUpdateCommand, type SendingRulesView, type SendWindow } from '@smsq/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../testing/dashboard-harness.js';
import { SettingsController } from './settings.controller.js';

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}-${Date.now()}@example.test`;

/** Dispatch's keeping of the rules, as far as the dashboard sees it: per client, read in the zone it is given. */
function fakeSendingRules() {
  const kept = new Map<number, Pick<SendingRulesView, 'routingMode' | 'stickyDays' | 'sendWindows'>>();
  const viewOf = (clientId: number, timeZone: string): SendingRulesView => {
    const rules = kept.get(clientId) ?? { routingMode: 'first', stickyDays: DEFAULT_STICKY_DAYS, sendWindows: [] };
    const minutes = weekMinutesOf(rules.sendWindows);
    const now = new Date();
    return { ...rules, timeZone, windowOpen: isWindowOpen(minutes, timeZone, now), windowOpensAt: nextWindowOpening(minutes, timeZone, now)?.toISOString() ?? null };
  };
  return {
    get: ({ clientId, timeZone }: SendingRulesGetQuery) => viewOf(clientId, timeZone),
    update: ({ clientId, timeZone, ...change }: SendingRulesUpdateCommand) => {
      const { routingMode, stickyDays, sendWindows } = viewOf(clientId, timeZone);
      kept.set(clientId, { routingMode: change.routingMode ?? routingMode, stickyDays: change.stickyDays ?? stickyDays, sendWindows: change.sendWindows ?? sendWindows });
      return viewOf(clientId, timeZone);
    },
  };
}

/** Every day, all day but its last minute. */
const ALMOST_ALWAYS: SendWindow = { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '00:00', to: '23:59' };

describe(SettingsController.name, () => {
  let dashboard: TestDashboard;

  beforeAll(async () => {
    dashboard = await startTestDashboard('dashboard_settings');
    const rules = fakeSendingRules();
    dashboard.services.dispatch
      .on(Patterns.dispatch.webhookList, ({ clientId }) => [
        { id: 1, clientId, url: 'https://hooks.example.test/', events: ['task.sent'], active: true, disabledReason: null, createdAt: '2026-11-22T10:00:00.000Z' },
      ])
      .on(Patterns.dispatch.sendingRulesGet, rules.get)
      .on(Patterns.dispatch.sendingRulesUpdate, rules.update);
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

  it('shows the sending rules of a client that set none as the specification’s: first phone, 30 sticky days, no windows, open', async () => {
    const browser = dashboard.browser();
    const clientId = (await browser.signUp(uniqueEmail('rules-default'))).body.user.clientId as number;

    const shown = await browser.get('/api/settings/sending');

    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ routingMode: 'first', stickyDays: 30, sendWindows: [], timeZone: 'Europe/Belgrade', windowOpen: true, windowOpensAt: null });
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.sendingRulesGet)).toContainEqual({ clientId, timeZone: 'Europe/Belgrade' });
  });

  it('saves the routing mode, sticky days and send windows in the client’s time zone, and shows when the windows open next', async () => {
    const browser = dashboard.browser();
    const clientId = (await browser.signUp(uniqueEmail('rules-set'))).body.user.clientId as number;
    await browser.send('PUT', '/api/settings/time-zone', { timeZone: 'Asia/Tokyo' });
    const windows = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' }, { days: ['sat'], from: '22:00', to: '02:00' }];

    const saved = await browser.send('PUT', '/api/settings/sending', { routingMode: 'sticky', stickyDays: 14, sendWindows: windows });

    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ routingMode: 'sticky', stickyDays: 14, timeZone: 'Asia/Tokyo' });
    expect(saved.body.sendWindows).toEqual(windows);
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.sendingRulesUpdate).at(-1)).toEqual({ clientId, timeZone: 'Asia/Tokyo', routingMode: 'sticky', stickyDays: 14, sendWindows: saved.body.sendWindows });
    expect((await browser.get('/api/settings/sending')).body).toEqual(saved.body);

    // A window only on the day after tomorrow (in Tokyo) is closed now, and opens that day at 08:00 Tokyo time.
    const inTwoDays = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', weekday: 'short' }).format(new Date(Date.now() + 2 * 86_400_000)).toLowerCase().slice(0, 3);
    const closed = await browser.send('PUT', '/api/settings/sending', { routingMode: 'spread', stickyDays: 14, sendWindows: [{ days: [inTwoDays], from: '08:00', to: '09:00' }] });
    expect(closed.body).toMatchObject({ routingMode: 'spread', windowOpen: false, windowOpensAt: expect.any(String) });
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(closed.body.windowOpensAt)).toLowerCase()).toBe(`${inTwoDays} 08:00`);

    const removed = await browser.send('PUT', '/api/settings/sending', { routingMode: 'first', stickyDays: 30, sendWindows: [] });
    expect(removed.body).toMatchObject({ routingMode: 'first', sendWindows: [], windowOpen: true, windowOpensAt: null });
  });

  it('refuses bad sending rules with 400 naming the field, and sends nothing to dispatch', async () => {
    const browser = dashboard.browser();
    const clientId = (await browser.signUp(uniqueEmail('rules-bad'))).body.user.clientId as number;
    const good = { routingMode: 'spread', stickyDays: 30, sendWindows: [] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, routingMode: 'random' }, 'routingMode must be one of first, spread, sticky'],
      [{ ...good, stickyDays: 0 }, 'stickyDays must be a whole number from 1 to 365'],
      [{ ...good, stickyDays: 366 }, 'stickyDays must be a whole number from 1 to 365'],
      [{ ...good, stickyDays: undefined }, 'stickyDays must be a whole number'],
      [{ ...good, sendWindows: Array.from({ length: 29 }, () => ALMOST_ALWAYS) }, 'sendWindows must be a list of at most 28 windows'],
      [{ ...good, sendWindows: [{ ...ALMOST_ALWAYS, days: [] }] }, 'sendWindows.0.days must name at least one day'],
      [{ ...good, sendWindows: [{ ...ALMOST_ALWAYS, days: ['monday'] }] }, 'days must name at least one day, each once, of mon, tue, wed, thu, fri, sat, sun'],
      [{ ...good, sendWindows: [{ ...ALMOST_ALWAYS, days: ['sat', 'sat'] }] }, 'days must name at least one day, each once'],
      [{ ...good, sendWindows: [ALMOST_ALWAYS, { ...ALMOST_ALWAYS, from: '8:00' }] }, 'sendWindows.1.from must be a time of day like 08:00'],
      [{ ...good, sendWindows: [{ ...ALMOST_ALWAYS, to: '24:30' }] }, 'to must be a time of day like 08:00'],
      [{ ...good, extra: true }, 'property extra should not exist'],
    ];

    for (const [body, detail] of cases) {
      const refused = await browser.send('PUT', '/api/settings/sending', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining(detail) });
    }
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.sendingRulesUpdate).filter((command) => command['clientId'] === clientId)).toEqual([]);
  });

  it('is for a signed-in client user only', async () => {
    const stranger = dashboard.browser();
    await stranger.session();

    expect((await stranger.get('/api/settings')).status).toBe(401);
    expect((await stranger.send('PUT', '/api/settings/time-zone', { timeZone: 'UTC' })).status).toBe(401);
    expect((await stranger.get('/api/settings/sending')).status).toBe(401);
    expect((await stranger.send('PUT', '/api/settings/sending', { routingMode: 'first', stickyDays: 30, sendWindows: [] })).status).toBe(401);
  });
});
