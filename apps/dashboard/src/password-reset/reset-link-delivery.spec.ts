import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogResetLinkDelivery, NoResetLinkDelivery, resetLinkDeliveryFor, SmtpResetLinkDelivery } from './reset-link-delivery.js';

const RESET = { email: 'someone@example.test', link: 'https://dash.example.test/reset-password#token=secret-token', expiresAt: new Date('2026-11-23T12:00:00Z') };

describe('resetLinkDeliveryFor', () => {
  afterEach(() => vi.restoreAllMocks());

  it('mails with SMTP, logs the link where allowed, and otherwise sends nothing', () => {
    expect(resetLinkDeliveryFor({ smtpUrl: 'smtp://mail.example.test', mailFrom: 'no-reply@example.test', resetLinksInLog: false })).toBeInstanceOf(SmtpResetLinkDelivery);
    expect(resetLinkDeliveryFor({ resetLinksInLog: true })).toBeInstanceOf(LogResetLinkDelivery);
    expect(resetLinkDeliveryFor({ resetLinksInLog: false })).toBeInstanceOf(NoResetLinkDelivery);
  });

  it('keeps the link out of the log where links may not go there, and says what to set', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);

    await resetLinkDeliveryFor({ resetLinksInLog: false }).deliver(RESET);
    await resetLinkDeliveryFor({ resetLinksInLog: true }).deliver(RESET);

    const [withheld, logged] = warn.mock.calls.map(([message]) => String(message));
    expect(withheld).not.toContain('secret-token');
    expect(withheld).toContain('SMSQ_SMTP_URL');
    expect(logged).toContain(RESET.link);
  });
});
