import { Patterns } from '@smsq/contracts';
import { SMSQ_VERSION } from '@smsq/platform';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.js';
import { CLIENT_ACCESS_TTL_MS } from '../shared/client-access.js';
import { startTestDashboard, type TestDashboard } from '../testing/dashboard-harness.js';
import { AdminUsersController } from '../users/admin-users.controller.js';
import { AuthController } from './auth.controller.js';

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}-${Date.now()}@example.test`;

describe(AuthController.name, () => {
  let dashboard: TestDashboard;

  beforeAll(async () => {
    dashboard = await startTestDashboard('dashboard_auth');
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("gives a browser without a session a pre-session cookie and a CSRF token, smsq's version, and nobody signed in", async () => {
    const browser = dashboard.browser();

    const response = await browser.get('/api/auth/session');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      user: null,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      profile: 'A',
      apiBaseUrl: 'https://sms.example.test',
      apiBaseUrlIsLoopback: false,
      defaultTimeZone: 'Europe/Belgrade',
      workerDownloadUrl: null,
      version: SMSQ_VERSION,
    });
    const setCookie = response.headers.getSetCookie();
    expect(setCookie).toEqual([expect.stringMatching(new RegExp(`^${dashboard.config.namespace}_pre=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict$`))]);
  });

  it('signs up: a free client through the gateway, a client user bound to it, a session cookie', async () => {
    const browser = dashboard.browser();
    const email = uniqueEmail('Signup');

    const response = await browser.signUp(`  ${email.toUpperCase()} `);

    expect(response.status).toBe(201);
    expect(response.body.user).toEqual({ id: expect.any(Number), email: email.toLowerCase(), role: 'client', clientId: expect.any(Number) });
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.clientCreate)).toContainEqual({ name: email.toLowerCase(), plan: 'free' });
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^${dashboard.config.namespace}_sid=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict$`))]);
    const session = await browser.session();
    expect(session.user).toEqual(response.body.user);
    expect(session.csrfToken).toBe(response.body.csrfToken);
  });

  it('refuses a second user with the same address, whatever its case, without creating a client', async () => {
    const email = uniqueEmail('twice');
    await dashboard.browser().signUp(email);
    const creates = dashboard.services.gateway.payloadsOf(Patterns.gateway.clientCreate).length;

    const again = await dashboard.browser().signUp(email.toUpperCase());

    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'conflict', detail: expect.any(String) });
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.clientCreate)).toHaveLength(creates);
  });

  it.each([
    ['no email', { password: 'long enough password' }],
    ['a malformed email', { email: 'not-an-address', password: 'long enough password' }],
    ['a password under 12 characters', { email: 'short@example.test', password: 'short' }],
    ['a password over 200 characters', { email: 'long@example.test', password: 'x'.repeat(201) }],
    ['an unknown field', { email: 'field@example.test', password: 'long enough password', role: 'admin' }],
  ])('refuses a sign-up with %s as invalid_request', async (_, body) => {
    const browser = dashboard.browser();
    await browser.session();

    const response = await browser.send('POST', '/api/auth/signup', body);

    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
  });

  it('answers a body that is not JSON with invalid_json', async () => {
    const browser = dashboard.browser();
    await browser.session();

    const response = await fetch(new URL('/api/auth/signin', dashboard.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': browser.csrfToken!, cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; ') },
      body: '{"email":',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_json' });
  });

  it('refuses state-changing requests without the CSRF token, with a wrong one or with another browser’s', async () => {
    const browser = dashboard.browser();
    await browser.signUp(uniqueEmail('csrf'));
    const other = dashboard.browser();
    await other.session();

    const without = await browser.send('POST', '/api/keys', undefined, null);
    const wrong = await browser.send('POST', '/api/keys', undefined, 'x'.repeat(43));
    const borrowed = await browser.send('POST', '/api/keys', undefined, other.csrfToken);
    const signUpWithout = await other.send('POST', '/api/auth/signup', { email: uniqueEmail('nocsrf'), password: 'long enough password' }, null);
    const crossSite = await browser.request('DELETE', '/api/keys/1', undefined, browser.csrfToken, { 'sec-fetch-site': 'cross-site' });

    for (const response of [without, wrong, borrowed, signUpWithout, crossSite]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: 'csrf_failed', detail: expect.any(String) });
    }
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.keyCreate)).toHaveLength(0);
  });

  it('signs in with a new session id each time, and signing out ends the session', async () => {
    const email = uniqueEmail('signin');
    const first = dashboard.browser();
    await first.signUp(email);
    const sessionCookie = `${dashboard.config.namespace}_sid`;
    const signedUpId = first.cookies.get(sessionCookie);

    const signedIn = await first.signIn(email.toUpperCase(), 'correct horse battery');

    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.email).toBe(email);
    const signedInId = first.cookies.get(sessionCookie);
    expect(signedInId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signedInId).not.toBe(signedUpId);
    // The id in use before signing in is dead: nobody who knew it is signed in.
    const stale = dashboard.browser();
    stale.cookies.set(sessionCookie, signedUpId!);
    expect((await stale.get('/api/keys')).status).toBe(401);

    const signedOut = await first.send('POST', '/api/auth/signout');
    expect(signedOut.status).toBe(204);
    expect(first.cookies.has(sessionCookie)).toBe(false);
    const replay = dashboard.browser();
    replay.cookies.set(sessionCookie, signedInId!);
    expect((await replay.get('/api/overview')).status).toBe(401);
    expect((await first.session()).user).toBeNull();
  });

  it('changes the password with the current one: every other browser is signed out, this one stays, and only the new password signs in', async () => {
    const email = uniqueEmail('password');
    const here = dashboard.browser();
    await here.signUp(email);
    const elsewhere = dashboard.browser();
    expect((await elsewhere.signIn(email, 'correct horse battery')).status).toBe(200);

    const wrong = await here.send('POST', '/api/auth/password', { currentPassword: 'not it at all', newPassword: 'a brand new passphrase' });
    expect(wrong.status).toBe(401);
    expect((await elsewhere.session()).user?.email).toBe(email);
    expect((await here.send('POST', '/api/auth/password', { currentPassword: 'correct horse battery', newPassword: 'short' })).status).toBe(400);

    const changed = await here.send('POST', '/api/auth/password', { currentPassword: 'correct horse battery', newPassword: 'a brand new passphrase' });

    expect(changed.status).toBe(200);
    expect(changed.body.user.email).toBe(email);
    expect((await here.session()).user?.email).toBe(email);
    expect((await elsewhere.session()).user).toBeNull();
    expect((await dashboard.browser().signIn(email, 'correct horse battery')).status).toBe(401);
    expect((await dashboard.browser().signIn(email, 'a brand new passphrase')).status).toBe(200);
    const stranger = dashboard.browser();
    await stranger.session();
    expect((await stranger.send('POST', '/api/auth/password', { currentPassword: 'a brand new passphrase', newPassword: 'another new passphrase' })).status).toBe(401);
  });

  it('counts wrong current passwords against the sign-in throttle, so a stolen session cannot guess the password', async () => {
    const email = uniqueEmail('guess');
    const thief = dashboard.browser();
    await thief.signUp(email);
    for (let guess = 0; guess < 5; guess++) {
      expect((await thief.send('POST', '/api/auth/password', { currentPassword: `guess ${guess}`, newPassword: 'taken over entirely' })).status).toBe(401);
    }

    const locked = await thief.send('POST', '/api/auth/password', { currentPassword: 'correct horse battery', newPassword: 'taken over entirely' });

    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('shuts a disabled client’s users out: sign-in says why, open sessions end, and enabling lets them back in', async () => {
    const email = uniqueEmail('disabled');
    const open = dashboard.browser();
    const signedUp = await open.signUp(email);
    const clientId = signedUp.body.user.clientId as number;
    expect((await open.get('/api/settings')).status).toBe(200);

    await dashboard.services.gateway.send(Patterns.gateway.clientSetDisabled, { clientId, disabled: true });
    // Open sessions end once this instance's answer about the client is older than CLIENT_ACCESS_TTL_MS.
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + CLIENT_ACCESS_TTL_MS);

    expect((await open.get('/api/settings')).status).toBe(401);
    expect((await open.session()).user).toBeNull();
    const refused = await dashboard.browser().signIn(email, 'correct horse battery');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'client_disabled', detail: expect.stringContaining('disabled by an administrator') });
    expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith(`${dashboard.config.namespace}_sid=`))).toBe(false);
    // The refusal comes only after the right password: a wrong one is just wrong.
    expect((await dashboard.browser().signIn(email, 'not the password at all')).status).toBe(401);

    await dashboard.services.gateway.send(Patterns.gateway.clientSetDisabled, { clientId, disabled: false });

    const back = dashboard.browser();
    expect((await back.signIn(email, 'correct horse battery')).status).toBe(200);
    expect((await back.get('/api/settings')).status).toBe(200);
  });

  it('does not shut out an admin while a client is disabled', async () => {
    const email = uniqueEmail('admin');
    await dashboard.app.get(AdminUsersController).createAdmin({ email, password: 'an admin password' });
    const client = await dashboard.browser().signUp(uniqueEmail('managed'));
    await dashboard.services.gateway.send(Patterns.gateway.clientSetDisabled, { clientId: client.body.user.clientId, disabled: true });

    const admin = dashboard.browser();

    expect((await admin.signIn(email, 'an admin password')).status).toBe(200);
    expect((await admin.session()).user?.role).toBe('admin');
  });

  it('answers a wrong password and an unknown address alike, 401', async () => {
    const email = uniqueEmail('wrong');
    await dashboard.browser().signUp(email);

    const wrongPassword = await dashboard.browser().signIn(email, 'not the password at all');
    const unknown = await dashboard.browser().signIn(uniqueEmail('nobody'), 'not the password at all');

    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknown.body);
  });

  it('locks an address after 5 failed sign-ins in 15 minutes, the right password included, with Retry-After', async () => {
    const email = uniqueEmail('throttle');
    await dashboard.browser().signUp(email);
    const attacker = dashboard.browser();

    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await attacker.signIn(email, `wrong password ${attempt}`)).status);
    const locked = await attacker.signIn(email, 'correct horse battery');

    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: 'rate_limited', detail: expect.any(String) });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(25);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    // Other addresses from the same IP are not locked by one address's failures.
    const other = uniqueEmail('unaffected');
    await dashboard.browser().signUp(other);
    expect((await dashboard.browser().signIn(other, 'correct horse battery')).status).toBe(200);
  });

  it('puts the security headers on every response: API answers, errors, refusals and pages', async () => {
    const browser = dashboard.browser();
    const responses = [await browser.get('/api/auth/session'), await browser.get('/api/overview'), await browser.get('/api/nothing-here'), await browser.send('POST', '/api/keys', undefined, null), await browser.get('/tasks/12')];

    for (const response of responses) {
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
    expect(responses[0]!.headers.get('cache-control')).toBe('no-store');
  });

  it('answers API routes to a browser that is not signed in with 401', async () => {
    const response = await dashboard.browser().get('/api/tasks');

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'unauthorized', detail: expect.any(String) });
  });
});
