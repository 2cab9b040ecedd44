import { Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { DashboardConfig } from '../config/dashboard-config.js';

/** Mail with SMTP configured; otherwise the log where allowed (DASHBOARD_RESET_LINKS_IN_LOG), else nowhere. */
export function resetLinkDeliveryFor(config: Pick<DashboardConfig, 'smtpUrl' | 'mailFrom' | 'resetLinksInLog'>): ResetLinkDelivery {
  if (config.smtpUrl && config.mailFrom) return new SmtpResetLinkDelivery(config.smtpUrl, config.mailFrom);
  return config.resetLinksInLog ? new LogResetLinkDelivery() : new NoResetLinkDelivery();
}

export interface ResetLink {
  email: string;
  link: string;
  expiresAt: Date;
}

/** Where a password reset link goes: e-mail with SMTP configured, otherwise the dashboard's log. */
export abstract class ResetLinkDelivery {
  abstract deliver(reset: ResetLink): Promise<void>;
}

export class SmtpResetLinkDelivery extends ResetLinkDelivery {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    // nodemailer would wait up to 10 minutes on a mail server gone silent.
    this.transport = createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  }

  async deliver(reset: ResetLink): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: reset.email,
      subject: 'Reset your smsq dashboard password',
      text: [
        'Someone (we hope you) asked to reset the password of this smsq dashboard account.',
        '',
        `Set a new password here: ${reset.link}`,
        '',
        `The link works once, until ${reset.expiresAt.toISOString()}. Every browser signed in as you is signed out when the new password is set.`,
        'If you did not ask for this, ignore this message: your password stays as it is.',
      ].join('\n'),
    });
  }
}

/** No mail server, and links kept out of the log (production): the reset is refused quietly, and the operator told why. */
export class NoResetLinkDelivery extends ResetLinkDelivery {
  private readonly logger = new Logger('PasswordReset');

  async deliver(reset: ResetLink): Promise<void> {
    this.logger.warn(`A password reset was asked for ${reset.email}, but no link was sent: set SMSQ_SMTP_URL and SMSQ_MAIL_FROM to mail it (or DASHBOARD_RESET_LINKS_IN_LOG=true to log it)`);
  }
}

/** Development without a mail server: the operator reads the link from the log and passes it on. */
export class LogResetLinkDelivery extends ResetLinkDelivery {
  private readonly logger = new Logger('PasswordReset');

  async deliver(reset: ResetLink): Promise<void> {
    this.logger.warn(`Password reset link for ${reset.email} (SMSQ_SMTP_URL is not set, so it is logged instead of e-mailed; valid once, until ${reset.expiresAt.toISOString()}): ${reset.link}`);
  }
}
