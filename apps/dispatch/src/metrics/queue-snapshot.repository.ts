import { Injectable } from '@nestjs/common';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { waitingCountOf } from '../tasks/waiting-tasks.js';

/** The most due tasks one snapshot reads: the backlog gauge saturates there instead of scanning without end. */
export const DUE_TASKS_READ_AT_MOST = 100_000;
/** The most phones one snapshot shows, the longest silent first: those are the ones an alert needs. */
export const PHONES_SHOWN_AT_MOST = 10_000;

export interface DueBacklog {
  due: number;
  oldestDueAt: Date | null;
}

export interface PhoneStateCount {
  state: string;
  phones: number;
}

/** An enabled phone out of contact, and the due tasks waiting for it. */
export interface SilentPhoneBacklog {
  id: number;
  waiting: number;
}

export interface PhonePoll {
  id: number;
  kind: string;
  lastSeenAt: Date;
}

@Injectable()
export class QueueSnapshotRepository {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly conditions: PhoneConditions,
  ) {}

  /** Phones and gateways by state: online, silent, disabled. */
  phoneStates(): Promise<PhoneStateCount[]> {
    return this.db.sql.$queryRaw<PhoneStateCount[]>`
      SELECT CASE WHEN NOT p.active THEN 'disabled' WHEN ${this.conditions.inContact('p')} THEN 'online' ELSE 'silent' END AS state, count(*)::int AS phones
        FROM "dispatch"."phones" p
       GROUP BY 1`;
  }

  /** Enabled silent phones with due tasks waiting, and how many (counted up to DUE_TASKS_READ_AT_MOST each); the PHONES_SHOWN_AT_MOST first. */
  silentBacklogs(): Promise<SilentPhoneBacklog[]> {
    return this.db.sql.$queryRaw<SilentPhoneBacklog[]>`
      SELECT p.id, w.waiting FROM "dispatch"."phones" p
       CROSS JOIN LATERAL (SELECT ${waitingCountOf(DUE_TASKS_READ_AT_MOST)} AS waiting) AS w
       WHERE p.active AND NOT ${this.conditions.inContact('p')} AND w.waiting > 0
       ORDER BY p.id
       LIMIT ${PHONES_SHOWN_AT_MOST}`;
  }

  /**
   * Tasks waiting for a phone now: pending, due, not expired, on an active phone. The due tasks
   * come off the (status, scheduled_at, id) index oldest first, at most DUE_TASKS_READ_AT_MOST of
   * them, so the statement is bounded whatever the backlog.
   */
  async dueBacklog(): Promise<DueBacklog> {
    const rows = await this.db.sql.$queryRaw<DueBacklog[]>`
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
    return this.db.sql.$queryRaw<PhonePoll[]>`
      SELECT id, kind::text AS kind, last_seen_at AS "lastSeenAt" FROM "dispatch"."phones"
       WHERE active AND last_seen_at IS NOT NULL
       ORDER BY last_seen_at, id
       LIMIT ${PHONES_SHOWN_AT_MOST}`;
  }
}
