import { Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';

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
    this.transport = createTransport(smtpUrl);
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

/** Development without a mail server: the operator reads the link from the log and passes it on. */
export class LogResetLinkDelivery extends ResetLinkDelivery {
  private readonly logger = new Logger('PasswordReset');

  async deliver(reset: ResetLink): Promise<void> {
    this.logger.warn(`Password reset link for ${reset.email} (SMSQ_SMTP_URL is not set, so it is logged instead of e-mailed; valid once, until ${reset.expiresAt.toISOString()}): ${reset.link}`);
  }
}
