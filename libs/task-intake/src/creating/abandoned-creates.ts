import { quoteIdentifier, type SqlSession } from '@smsq/persistence';

/**
 * The task keys of creates whose outcome nobody learnt, in the `abandoned_creates` table of the
 * schema of the service that made them (the gateway's, the SMPP service's), until the relay settles each.
 */
export class AbandonedCreates {
  private readonly table: string;

  constructor(
    private readonly db: SqlSession,
    schema: string,
  ) {
    this.table = `${quoteIdentifier(schema)}."abandoned_creates"`;
  }

  async record(taskKey: string, clientId: number): Promise<void> {
    await this.db.$executeRawUnsafe(`INSERT INTO ${this.table} (task_key, client_id) VALUES ($1::uuid, $2) ON CONFLICT (task_key) DO NOTHING`, taskKey, clientId);
  }

  /**
   * The oldest keys no other instance is settling, at most `limit`, oldest first, each held for
   * `leaseMs`: two instances settle different keys instead of the same ones twice.
   */
  async take(limit: number, leaseMs: number): Promise<string[]> {
    const rows = await this.db.$queryRawUnsafe<Array<{ task_key: string; created_at: Date }>>(
      `UPDATE ${this.table} SET settling_until = now() + $1 * interval '1 millisecond'
       WHERE task_key IN (
         SELECT task_key FROM ${this.table}
         WHERE settling_until IS NULL OR settling_until < now()
         ORDER BY created_at LIMIT $2
         FOR UPDATE SKIP LOCKED)
       RETURNING task_key::text, created_at`,
      leaseMs,
      limit,
    );
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime()).map((row) => row.task_key);
  }

  /** Keys taken and not settled, for the next round of any instance. */
  async release(taskKeys: readonly string[]): Promise<void> {
    if (taskKeys.length > 0) await this.db.$executeRawUnsafe(`UPDATE ${this.table} SET settling_until = NULL WHERE task_key = ANY($1::uuid[])`, [...taskKeys]);
  }

  async forget(taskKey: string): Promise<void> {
    await this.db.$executeRawUnsafe(`DELETE FROM ${this.table} WHERE task_key = $1::uuid`, taskKey);
  }
}
