import { Injectable } from '@nestjs/common';
import { DispatchDatabase } from '../database/dispatch-database.js';

/** The most due tasks one snapshot reads: the backlog gauge saturates there instead of scanning without end. */
export const DUE_TASKS_READ_AT_MOST = 100_000;
/** The most phones one snapshot shows, the longest silent first: those are the ones an alert needs. */
export const PHONES_SHOWN_AT_MOST = 10_000;

export interface DueBacklog {
  due: number;
  oldestDueAt: Date | null;
}

export interface PhonePoll {
  id: number;
  kind: string;
  lastSeenAt: Date;
}

@Injectable()
export class QueueSnapshotRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /**
   * Tasks waiting for a phone now: pending, due, not expired, on an active phone. The due tasks
   * come off the (status, scheduled_at, id) index oldest first, at most DUE_TASKS_READ_AT_MOST of
   * them, so the statement is bounded whatever the backlog.
   */
  async dueBacklog(): Promise<DueBacklog> {
    const rows = await this.db.$queryRaw<DueBacklog[]>`
      WITH due AS (
        SELECT t.scheduled_at, t.phone_id FROM "dispatch"."tasks" t
         WHERE t.status = 'pending' AND t.scheduled_at <= now() AND (t.expires_at IS NULL OR t.expires_at > now())
         ORDER BY t.scheduled_at, t.id
         LIMIT ${DUE_TASKS_READ_AT_MOST}
      )
      SELECT count(*)::int AS due, min(due.scheduled_at) AS "oldestDueAt"
        FROM due JOIN "dispatch"."phones" p ON p.id = due.phone_id AND p.active`;
    return rows[0] ?? { due: 0, oldestDueAt: null };
  }

  /** Active phones and gateways that have polled at least once, with their last poll. */
  phonePolls(): Promise<PhonePoll[]> {
    return this.db.$queryRaw<PhonePoll[]>`
      SELECT id, kind::text AS kind, last_seen_at AS "lastSeenAt" FROM "dispatch"."phones"
       WHERE active AND last_seen_at IS NOT NULL
       ORDER BY last_seen_at, id
       LIMIT ${PHONES_SHOWN_AT_MOST}`;
  }
}
