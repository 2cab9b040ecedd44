import type pg from 'pg';

/** A claimed task as pending-tasks answers it (DESIGN.md §3). */
export interface ClaimedTaskBody {
  id: number;
  recipient: string;
  message: string;
  phone_id: number;
  client_id: number;
  scheduled_at: string;
  gateway_url: string | null;
  attempt: number;
  claim_expires_at: string;
}

/**
 * A worker token's claim and report, for a token not bound to a phone (Profile B, as the bench's
 * tokens are). Written apart from dispatch's repositories on purpose (one-process-server.ts says
 * why): the claim is pgbench's `CLAIM_SQL` (scenario 3's baseline) with the fields pending-tasks
 * hands over, the report one statement that checks the claim is the token's (a repeated `sent` is
 * answered again, as task-status answers it).
 */
const STATEMENTS = {
  claim: `WITH next AS (
            SELECT t.id FROM "dispatch"."tasks" t JOIN "dispatch"."phones" p ON p.id = t.phone_id
             WHERE t.status = 'pending' AND t.scheduled_at <= now() AND p.active AND p.kind = 'gateway'
             ORDER BY t.scheduled_at, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED)
          UPDATE "dispatch"."tasks" t
             SET status = 'claimed', attempts = t.attempts + 1, claimed_by_token_id = $1, claim_expires_at = now() + 300 * interval '1 second'
            FROM next, "dispatch"."phones" p
           WHERE t.id = next.id AND p.id = t.phone_id
       RETURNING t.id, t.recipient, t.message, t.phone_id, t.client_id, t.scheduled_local AS scheduled_at, p.url AS gateway_url,
                 t.attempts AS attempt, t.claim_expires_at`,
  report: `UPDATE "dispatch"."tasks" SET status = 'sent', sent_at = COALESCE(sent_at, now()), claim_expires_at = NULL
            WHERE id = $1 AND status IN ('claimed', 'sent') AND claimed_by_token_id = $2
        RETURNING id`,
} as const;

export class DeliveryStore {
  constructor(private readonly pool: pg.Pool) {}

  /** The oldest due task, claimed for the token; undefined when none is due. */
  async claim(tokenId: number): Promise<ClaimedTaskBody | undefined> {
    const { rows } = await this.pool.query<Omit<ClaimedTaskBody, 'claim_expires_at'> & { claim_expires_at: Date }>({ name: 'one-process-claim', text: STATEMENTS.claim, values: [tokenId] });
    const row = rows[0];
    return row && { ...row, claim_expires_at: row.claim_expires_at.toISOString() };
  }

  /** Marks the token's claimed task sent (again, for a repeat); false when the token holds no such task. */
  async reportSent(tokenId: number, taskId: number): Promise<boolean> {
    const { rowCount } = await this.pool.query({ name: 'one-process-report', text: STATEMENTS.report, values: [taskId, tokenId] });
    return rowCount === 1;
  }
}
