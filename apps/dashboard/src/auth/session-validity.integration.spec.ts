import { createHash, randomBytes } from 'node:crypto';
import { Patterns, UnavailableError, type ClientView } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PasswordResetsRepository } from '../password-reset/password-resets.repository.js';
import { CLIENT_ACCESS_TTL_MS } from '../shared/client-access.js';
import { DashboardDatabase } from '../database/dashboard-database.js';
import { startTestDashboard, testDashboardConfig, type TestDashboard } from '../testing/dashboard-harness.js';
import type { TestBrowser } from '../testing/test-browser.js';
import { PasswordHasher } from '../users/password-hasher.js';
import { AuthService } from './auth.service.js';

const PASSWORD = 'correct horse battery';
const RESET_PASSWORD = 'set through the reset link';
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}-${Date.now()}@example.test`;

/** A promise the test resolves when it chooses: how a request is held at one step. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Which sessions stay valid: a password version per user (a reset or change ends every session
 * signed in with an earlier password, however late that sign-in finished), and a client's disabled
 * state asked of the gateway at most once per client per CLIENT_ACCESS_TTL_MS.
 */
describe(`${AuthService.name}: which sessions stay valid`, () => {
  let dashboard: TestDashboard;
  /** The gateway's answer to clientGet, per client: disabled or not, held at a gate, or no answer. */
  const disabled = new Set<number>();
  const held = new Map<number, Promise<void>>();
  let gatewayDown = false;

  beforeAll(async () => {
    dashboard = await startTestDashboard('dashboard_session_validity');
    dashboard.services.gateway.on(Patterns.gateway.clientGet, async ({ clientId }: { clientId: number }): Promise<ClientView> => {
      if (gatewayDown) throw new UnavailableError('the gateway service did not answer; retry later');
      await held.get(clientId);
      return { id: clientId, name: `client ${clientId}`, timezone: 'Europe/Belgrade', createdAt: '2026-11-22T10:00:00.000Z', disabledAt: disabled.has(clientId) ? '2026-11-25T10:00:00.000Z' : null };
    });
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  beforeEach(() => {
    gatewayDown = false;
    held.clear();
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const asksFor = (clientId: number) => dashboard.services.gateway.payloadsOf(Patterns.gateway.clientGet).filter((payload) => payload['clientId'] === clientId).length;

  async function signedUp(label: string): Promise<{ browser: TestBrowser; email: string; userId: number; clientId: number }> {
    const email = uniqueEmail(label);
    const browser = dashboard.browser();
    const answer = await browser.signUp(email, PASSWORD);
    expect(answer.status).toBe(201);
    return { browser, email, userId: answer.body.user.id as number, clientId: answer.body.user.clientId as number };
  }

  /** A reset link's token for the user, as the mailed one would carry, used on the reset page. */
  async function resetPassword(userId: number, newPassword: string): Promise<number> {
    const token = randomBytes(32).toString('base64url');
    await dashboard.app.get(PasswordResetsRepository).replace(userId, createHash('sha256').update(token).digest('hex'), new Date(Date.now() + 60_000));
    const browser = dashboard.browser();
    await browser.session();
    return (await browser.send('POST', '/api/auth/password-reset/complete', { token, newPassword })).status;
  }

  /** Moves the clock of the dashboard (and of this test, the same process) on by `ms`. */
  function clockMovesOn(ms: number): void {
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
  }

  it('ends a sign-in whose password was checked before a reset, though its session was made after it', async () => {
    const { email, userId, clientId } = await signedUp('late-signin');
    const signInHeld = gate();
    held.set(clientId, signInHeld.opened);
    const asksBefore = asksFor(clientId);
    const late = dashboard.browser();
    await late.session();

    // The old password is checked; the sign-in then waits on the gateway's disabled-client check.
    const signingIn = late.signIn(email, PASSWORD);
    await eventually(() => expect(asksFor(clientId)).toBe(asksBefore + 1), { timeoutMs: 10_000, intervalMs: 20 });
    expect(await resetPassword(userId, RESET_PASSWORD)).toBe(200);
    signInHeld.open();
    const signedIn = await signingIn;

    // Its session is made after the reset; its first request finds the old password's version in it.
    expect(signedIn.status).toBe(200);
    expect((await late.session()).user).toBeNull();
    expect((await late.get('/api/settings')).status).toBe(401);
    expect((await dashboard.browser().signIn(email, PASSWORD)).status).toBe(401);
    const fresh = dashboard.browser();
    expect((await fresh.signIn(email, RESET_PASSWORD)).status).toBe(200);
    expect((await fresh.session()).user?.email).toBe(email);
  });

  it('refuses a password change whose current password was checked before a reset; the reset’s password stays', async () => {
    const { browser, email, userId } = await signedUp('late-change');
    const hasher = dashboard.app.get(PasswordHasher);
    const changeHeld = gate();
    const hash = hasher.hash.bind(hasher);
    // The change's new password is hashed after its check of the current one; it waits there.
    const hashing = vi.spyOn(hasher, 'hash').mockImplementationOnce(async (password) => {
      await changeHeld.opened;
      return hash(password);
    });

    const changing = browser.send('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'set by the late change' });
    await eventually(() => expect(hashing).toHaveBeenCalledTimes(1), { timeoutMs: 10_000, intervalMs: 20 });
    expect(await resetPassword(userId, RESET_PASSWORD)).toBe(200);
    changeHeld.open();
    const changed = await changing;

    expect(changed.status).toBe(401);
    expect((await browser.session()).user).toBeNull();
    expect((await dashboard.browser().signIn(email, 'set by the late change')).status).toBe(401);
    expect((await dashboard.browser().signIn(email, RESET_PASSWORD)).status).toBe(200);
  });

  it('hashes a password made at another cost again at sign-in, at the configured cost, and ends no session', async () => {
    const { browser: earlier, email, userId } = await signedUp('rehash');
    const users = dashboard.app.get(DashboardDatabase).user;
    // As a user whose password was set before DASHBOARD_PASSWORD_COST changed (the suite's dashboard hashes at 4).
    await users.update({ where: { id: userId }, data: { passwordHash: await new PasswordHasher(testDashboardConfig({ passwordCost: 5 })).hash(PASSWORD) } });
    const before = await users.findUniqueOrThrow({ where: { id: userId } });

    expect((await dashboard.browser().signIn(email, PASSWORD)).status).toBe(200);

    const after = await users.findUniqueOrThrow({ where: { id: userId } });
    expect(before.passwordHash).toMatch(/^\$2b\$05\$/);
    expect(after.passwordHash).toMatch(/^\$2b\$04\$/);
    expect(after.passwordVersion).toBe(before.passwordVersion);
    expect((await earlier.session()).user?.email).toBe(email);
    expect((await dashboard.browser().signIn(email, PASSWORD)).status).toBe(200);
    expect((await dashboard.browser().signIn(email, 'not the password')).status).toBe(401);
    expect((await users.findUniqueOrThrow({ where: { id: userId } })).passwordHash).toBe(after.passwordHash);
  });

  it('keeps the changing browser signed in with the new password’s version, and ends the others', async () => {
    const { browser: here, email } = await signedUp('change');
    const elsewhere = dashboard.browser();
    expect((await elsewhere.signIn(email, PASSWORD)).status).toBe(200);

    expect((await here.send('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'the changed passphrase' })).status).toBe(200);

    expect((await elsewhere.session()).user).toBeNull();
    expect((await here.session()).user?.email).toBe(email);
    expect((await here.get('/api/settings')).status).toBe(200);
  });

  it('asks the gateway once per client within the window, and a disable ends the session once the window is over', async () => {
    const { browser, clientId } = await signedUp('cached');
    const asksBefore = asksFor(clientId);

    expect((await browser.session()).user?.clientId).toBe(clientId);
    expect((await browser.session()).user?.clientId).toBe(clientId);
    expect(asksFor(clientId)).toBe(asksBefore + 1);

    disabled.add(clientId);
    // Within the window this instance still uses the answer it has…
    expect((await browser.session()).user?.clientId).toBe(clientId);
    expect(asksFor(clientId)).toBe(asksBefore + 1);
    // …and after it asks again, and the session ends.
    clockMovesOn(CLIENT_ACCESS_TTL_MS);
    expect((await browser.session()).user).toBeNull();
    expect(asksFor(clientId)).toBe(asksBefore + 2);
    expect((await browser.get('/api/settings')).status).toBe(401);
  });

  it('refuses a disabled client’s sign-in at once, whatever this instance last heard', async () => {
    const { browser, email, clientId } = await signedUp('signin-fresh');
    expect((await browser.session()).user?.clientId).toBe(clientId);

    disabled.add(clientId);

    expect((await dashboard.browser().signIn(email, PASSWORD)).status).toBe(403);
    // What sign-in heard counts for the open session too.
    expect((await browser.session()).user).toBeNull();
  });

  it('without the gateway: a remembered answer still serves, an unknown client’s request fails as it did, and a signed-out browser is unaffected', async () => {
    const remembered = await signedUp('remembered');
    expect((await remembered.browser.session()).user?.clientId).toBe(remembered.clientId);
    const unknown = await signedUp('unknown');

    gatewayDown = true;

    expect((await remembered.browser.session()).user?.clientId).toBe(remembered.clientId);
    const failed = await unknown.browser.get('/api/auth/session');
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ error: 'unavailable', detail: expect.any(String) });
    const signedOut = await dashboard.browser().get('/api/auth/session');
    expect(signedOut.status).toBe(200);
    expect(signedOut.body.user).toBeNull();
  });
});
