import type pg from 'pg';

/**
 * Backlogs are written straight into dispatch's tasks table, as the create path would leave them
 * (pending, due, on an active gateway), because a million tasks through the API would take longer
 * than the bench itself. Claims need nothing else: no charge is read when a task is claimed or sent.
 */
export class Backlog {
  constructor(
    private readonly sql: pg.Pool,
    private readonly gatewayIds: number[],
  ) {}

  /**
   * Statistics as a running system's autovacuum keeps them. The phones' too: the machines this
   * runs on may have autovacuum off (the CI machines do), and without them the planner took the
   * 40 gateways for one, and an unbound token's claim read and sorted every due task of each
   * gateway (0.4–0.6 s a claim with 100,000 due) instead of taking the first off the index.
   */
  private async analyze(): Promise<void> {
    await this.sql.query('VACUUM (ANALYZE) "dispatch"."tasks"');
    await this.sql.query('ANALYZE "dispatch"."phones"');
  }

  /** Marks every task still waiting or held as sent, so the next scenario starts from a backlog it knows. */
  async retireAll(): Promise<void> {
    await this.sql.query(`UPDATE "dispatch"."tasks" SET status = 'sent', sent_at = now(), claim_expires_at = NULL WHERE status IN ('pending', 'claimed')`);
    await this.analyze();
  }

  /**
   * Adds `count` due tasks spread over the gateways, in batches so progress shows and no statement runs for minutes.
   * They fall due from `dueMinutesAgo` on, one microsecond apart (claims take them in that order);
   * `pinned` ones are as if the client had asked for the phone (failover never moves them).
   */
  async add(count: number, onProgress?: (added: number) => void, placing: { dueMinutesAgo?: number; pinned?: boolean } = {}): Promise<void> {
    const batch = 200_000;
    for (let added = 0; added < count; added += batch) {
      const size = Math.min(batch, count - added);
      await this.sql.query(
        `INSERT INTO "dispatch"."tasks" (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local, attempts, pinned)
         SELECT gen_random_uuid(), p.client_id, p.id, '+38164' || (1000000 + n % 8999999)::text, 'bench backlog ' || n,
                'pending', now() - $4::int * interval '1 minute' + n * interval '1 microsecond', '2026-01-01 00:00:00', 0, $5::boolean
           FROM generate_series($1::int, $2::int) n
           JOIN "dispatch"."phones" p ON p.id = ($3::int[])[1 + n % cardinality($3::int[])]`,
        [added, added + size - 1, this.gatewayIds, placing.dueMinutesAgo ?? 60, placing.pinned ?? false],
      );
      onProgress?.(added + size);
    }
    await this.analyze();
  }

  async pending(): Promise<number> {
    const { rows } = await this.sql.query<{ count: string }>(`SELECT count(*) FROM "dispatch"."tasks" WHERE status = 'pending'`);
    return Number(rows[0]!.count);
  }

  /** Tasks claimed more than once: a second claim of a task would have raised its attempts above 1. */
  async claimedTwice(): Promise<number> {
    const { rows } = await this.sql.query<{ count: string }>(`SELECT count(*) FROM "dispatch"."tasks" WHERE attempts > 1`);
    return Number(rows[0]!.count);
  }
}
