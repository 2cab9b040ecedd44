import { Logger } from '@nestjs/common';
import { eventually, startMailbox, type ReceivedMail } from '@smsq/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DashboardDatabase } from '../database/dashboard-database.js';
import { startTestDashboard, type TestDashboard } from '../testing/dashboard-harness.js';
import { PasswordResetController } from './password-reset.controller.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a new passphrase from the link';
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}-${Date.now()}@example.test`;

function tokenOf(link: string): string {
  return new URL(link).hash.replace(/^#token=/, '');
}

describe(PasswordResetController.name, () => {
  describe('with SMTP configured', () => {
    let dashboard: TestDashboard;
    let mailbox: Awaited<ReturnType<typeof startMailbox>>;

    beforeAll(async () => {
      mailbox = await startMailbox();
      dashboard = await startTestDashboard('dashboard_reset_smtp', { smtpUrl: mailbox.url, mailFrom: 'smsq <no-reply@example.test>' });
    });

    afterAll(async () => {
      await dashboard?.close();
      await mailbox?.close();
    });

    async function requestReset(email: string) {
      const browser = dashboard.browser();
      await browser.session();
      return browser.send('POST', '/api/auth/password-reset', { email });
    }

    async function mailTo(email: string, count = 1): Promise<ReceivedMail> {
      const mails = await eventually(
        async () => {
          const found = mailbox.mails.filter((mail) => mail.to.includes(email));
          expect(found.length).toBeGreaterThanOrEqual(count);
          return found;
        },
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      return mails[count - 1]!;
    }

    function linkIn(mail: ReceivedMail): string {
      const match = /https:\/\/dash\.example\.test\/reset-password#token=[A-Za-z0-9_-]{43}/.exec(mail.text);
      if (!match) throw new Error(`no reset link in ${mail.text}`);
      return match[0];
    }

    async function completeReset(token: string, newPassword = NEW_PASSWORD) {
      const browser = dashboard.browser();
      await browser.session();
      return browser.send('POST', '/api/auth/password-reset/complete', { token, newPassword });
    }

    it('mails a link to the reset page; the link sets a new password once, and every session of the user ends', async () => {
      const email = uniqueEmail('forgot');
      const signedIn = dashboard.browser();
      await signedIn.signUp(email, PASSWORD);

      const asked = await requestReset(`  ${email.toUpperCase()} `);

      expect(asked).toMatchObject({ status: 202, body: { ok: true } });
      const mail = await mailTo(email);
      expect(mail.from).toBe('no-reply@example.test');
      expect(mail.text).toContain('Subject: Reset your smsq dashboard password');
      const link = linkIn(mail);

      const reset = await completeReset(tokenOf(link));

      expect(reset).toMatchObject({ status: 200, body: { ok: true } });
      expect((await signedIn.session()).user).toBeNull();
      expect((await dashboard.browser().signIn(email, PASSWORD)).status).toBe(401);
      expect((await dashboard.browser().signIn(email, NEW_PASSWORD)).status).toBe(200);
      const again = await completeReset(tokenOf(link), 'yet another passphrase');
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining('not valid') });
      expect((await dashboard.browser().signIn(email, NEW_PASSWORD)).status).toBe(200);
    });

    it('answers an address without an account exactly as one with, and sends nothing', async () => {
      const known = uniqueEmail('known');
      await dashboard.browser().signUp(known, PASSWORD);
      const unknown = uniqueEmail('nobody');

      const forKnown = await requestReset(known);
      const forUnknown = await requestReset(unknown);

      expect(forUnknown.status).toBe(forKnown.status);
      expect(forUnknown.body).toEqual(forKnown.body);
      await mailTo(known);
      expect(mailbox.mails.filter((mail) => mail.to.includes(unknown))).toEqual([]);
    });

    it('keeps only the newest link: an earlier one no longer works', async () => {
      const email = uniqueEmail('twice');
      await dashboard.browser().signUp(email, PASSWORD);
      await requestReset(email);
      const first = linkIn(await mailTo(email, 1));
      await requestReset(email);
      const second = linkIn(await mailTo(email, 2));

      expect((await completeReset(tokenOf(first))).status).toBe(400);
      expect((await completeReset(tokenOf(second))).status).toBe(200);
    });

    it('refuses a link past its hour, and one voided by a password change', async () => {
      const email = uniqueEmail('late');
      const browser = dashboard.browser();
      await browser.signUp(email, PASSWORD);
      await requestReset(email);
      const late = linkIn(await mailTo(email, 1));
      await dashboard.app.get(DashboardDatabase).passwordReset.updateMany({ data: { expiresAt: new Date(Date.now() - 1_000) } });

      expect((await completeReset(tokenOf(late))).status).toBe(400);
      expect((await dashboard.browser().signIn(email, PASSWORD)).status).toBe(200);

      await requestReset(email);
      const voided = linkIn(await mailTo(email, 2));
      expect((await browser.send('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'changed in settings' })).status).toBe(200);
      expect((await completeReset(tokenOf(voided))).status).toBe(400);
    });

    it('sets the new password under sign-up’s rules, and refuses what is not a token', async () => {
      const email = uniqueEmail('rules');
      await dashboard.browser().signUp(email, PASSWORD);
      await requestReset(email);
      const token = tokenOf(linkIn(await mailTo(email)));

      expect((await completeReset(token, 'short')).status).toBe(400);
      expect((await completeReset('not-a-token', NEW_PASSWORD)).status).toBe(400);
      // A refused password did not spend the token.
      expect((await completeReset(token)).status).toBe(200);
    });

    it('leaves the link usable when storing the new password fails: the token is spent only with the password', async () => {
      const email = uniqueEmail('store-fails');
      const signedUp = await dashboard.browser().signUp(email, PASSWORD);
      const userId = signedUp.body.user.id as number;
      await requestReset(email);
      const token = tokenOf(linkIn(await mailTo(email)));
      const database = dashboard.app.get(DashboardDatabase);
      // Postgres refuses this one user's password update, as a dropped connection or a full disk would.
      await database.$executeRawUnsafe(`CREATE FUNCTION "dashboard"."refuse_password_update"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'password store failed'; END $$`);
      await database.$executeRawUnsafe(`CREATE TRIGGER "refuse_password_update" BEFORE UPDATE ON "dashboard"."users" FOR EACH ROW WHEN (OLD.id = ${userId}) EXECUTE FUNCTION "dashboard"."refuse_password_update"()`);

      const failed = await completeReset(token);

      await database.$executeRawUnsafe(`DROP TRIGGER "refuse_password_update" ON "dashboard"."users"`);
      await database.$executeRawUnsafe(`DROP FUNCTION "dashboard"."refuse_password_update"()`);
      expect(failed.status).toBe(500);
      expect((await dashboard.browser().signIn(email, PASSWORD)).status).toBe(200);
      expect((await completeReset(token)).status).toBe(200);
      expect((await dashboard.browser().signIn(email, NEW_PASSWORD)).status).toBe(200);
      expect((await completeReset(token, 'yet another passphrase')).status).toBe(400);
    });

    it('sends one address at most three links an hour, answering every request alike, so nobody can flood a mailbox nor lock its owner out', async () => {
      const member = uniqueEmail('flood');
      await dashboard.browser().signUp(member, PASSWORD);
      // The fourth request stands for the owner's, after someone else used up the address's links: answered as anyone's.
      for (const email of [member, uniqueEmail('flood-nobody')]) {
        const answers = [];
        for (let attempt = 0; attempt < 4; attempt += 1) answers.push(await requestReset(email));
        expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202]);
      }
      // Three links reached the mailbox, no more, and the last still works.
      const links = await mailTo(member, 3);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(mailbox.mails.filter((mail) => mail.to.includes(member))).toHaveLength(3);
      expect((await completeReset(tokenOf(linkIn(links)))).status).toBe(200);
      // Another address from the same IP is not held up by these.
      expect((await requestReset(uniqueEmail('other'))).status).toBe(202);
    });
  });

  describe('without SMTP', () => {
    let dashboard: TestDashboard;

    beforeAll(async () => {
      dashboard = await startTestDashboard('dashboard_reset_log');
    });

    afterAll(async () => {
      await dashboard?.close();
    });

    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('writes the link to the log, where it works as the mailed one does', async () => {
      const warnings = vi.spyOn(Logger.prototype, 'warn');
      const email = uniqueEmail('logged');
      const signedIn = dashboard.browser();
      await signedIn.signUp(email, PASSWORD);
      const browser = dashboard.browser();
      await browser.session();

      expect((await browser.send('POST', '/api/auth/password-reset', { email })).status).toBe(202);

      const line = await eventually(
        async () => {
          const found = warnings.mock.calls.map(([message]) => String(message)).find((message) => message.includes(email));
          expect(found).toBeDefined();
          return found!;
        },
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      expect(line).toContain('SMSQ_SMTP_URL is not set');
      const link = /https:\/\/dash\.example\.test\/reset-password#token=[A-Za-z0-9_-]{43}/.exec(line)![0];
      expect((await browser.send('POST', '/api/auth/password-reset/complete', { token: tokenOf(link), newPassword: NEW_PASSWORD })).status).toBe(200);
      expect((await signedIn.session()).user).toBeNull();
      expect((await dashboard.browser().signIn(email, NEW_PASSWORD)).status).toBe(200);
    });
  });
});
