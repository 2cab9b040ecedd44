import { Injectable } from '@nestjs/common';
import { DashboardDatabase } from '../database/dashboard-database.js';

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

  /** Deletes the reset of this token and answers whose it was, if it had not expired; a token works once. */
  async consume(tokenHash: string, now: Date): Promise<number | null> {
    const [row] = await this.database.$queryRaw<Array<{ user_id: number; expires_at: Date }>>`
      DELETE FROM "dashboard"."password_resets" WHERE token_hash = ${tokenHash} RETURNING user_id, expires_at`;
    return row && row.expires_at > now ? row.user_id : null;
  }
}
