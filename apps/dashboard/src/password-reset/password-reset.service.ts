import { createHash, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InvalidRequestError } from '@smsq/contracts';
import { PasswordResetThrottle, SignInThrottle } from '../auth/sign-in-throttle.js';
import { DashboardConfig } from '../config/dashboard-config.js';
import { normaliseEmail } from '../users/email.js';
import { PasswordHasher } from '../users/password-hasher.js';
import { UsersService } from '../users/users.service.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { ResetLinkDelivery } from './reset-link-delivery.js';

/** How long a reset link works. */
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
/** The reset page of the front end; the token rides in the fragment, which browsers never send to a server. */
export const RESET_PATH = '/reset-password';

/**
 * Forgotten passwords. A request answers the same at once whatever the address, and the lookup,
 * the token and the delivery happen after the answer, so neither the answer nor its timing tells
 * whether an account exists.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly config: DashboardConfig,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly resets: PasswordResetsRepository,
    private readonly delivery: ResetLinkDelivery,
    private readonly requestThrottle: PasswordResetThrottle,
    private readonly signInThrottle: SignInThrottle,
  ) {}

  async request(email: string, ip: string): Promise<void> {
    const address = normaliseEmail(email);
    if (!(await this.requestThrottle.admit(address, ip))) return;
    void this.issue(address).catch((error: Error) => this.logger.error(`password reset not delivered: ${error.message}`));
  }

  /** A new password for the token's user; the token is spent with it, and every session of the user ends. */
  async complete(token: string, newPassword: string): Promise<void> {
    const tokenHash = hashOf(token);
    // Hashed before the transaction, which then holds no row lock for a quarter of a second.
    const user = (await this.resets.isRedeemable(tokenHash, new Date())) ? await this.resets.redeem(tokenHash, new Date(), await this.hasher.hash(newPassword)) : null;
    if (user === null) throw new InvalidRequestError('this password reset link is not valid: it was used already, has expired, or a newer one was sent; ask for a new one');
    // Whoever holds the mailbox may sign in now, even if someone else locked the address with wrong passwords.
    await this.signInThrottle.recordSuccess(user.email);
  }

  private async issue(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MS);
    await this.resets.replace(user.id, hashOf(token), expiresAt);
    await this.delivery.deliver({ email: user.email, link: `${this.config.publicUrl}${RESET_PATH}#token=${token}`, expiresAt });
  }
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
