import { Injectable } from '@nestjs/common';
import { DashboardDatabase } from '../database/dashboard-database.js';
import { newPasswordOf, type StoredUser } from '../users/users.repository.js';

@Injectable()
export class PasswordResetsRepository {
  constructor(private readonly database: DashboardDatabase) {}

  /** The user's one outstanding reset: a new one replaces any earlier token. */
  async replace(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.database.passwordReset.upsert({
      where: { userId },
      create: { userId, tokenHash, expiresAt },
      update: { tokenHash, expiresAt, createdAt: new Date() },
    });
  }

  /** Whether this token would set a password now; only a read, so a wrong token costs no hashing. */
  async isRedeemable(tokenHash: string, now: Date): Promise<boolean> {
    return (await this.database.passwordReset.count({ where: { tokenHash, expiresAt: { gt: now } } })) > 0;
  }

  /**
   * Spends the token and stores the new password (its version one higher) in one transaction: a
   * token works once, and a failure before the password is stored leaves it unspent. The user,
   * or null when the token is unknown or past its hour.
   */
  redeem(tokenHash: string, now: Date, passwordHash: string): Promise<StoredUser | null> {
    return this.database.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ user_id: number; expires_at: Date }>>`
        DELETE FROM "dashboard"."password_resets" WHERE token_hash = ${tokenHash} RETURNING user_id, expires_at`;
      if (!row || row.expires_at <= now) return null;
      return tx.user.update({ where: { id: row.user_id }, data: newPasswordOf(passwordHash) });
    });
  }
}
