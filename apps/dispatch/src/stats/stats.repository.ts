import { Injectable } from '@nestjs/common';
import { TASK_STATUSES, type DailyTaskCount, type TaskStatus } from '@smsq/contracts';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';

/**
 * Counts computed in SQL on the database's clock. Every range starts at an instant computed once
 * (an InitPlan), so each count is a range scan of a (client_id, <time>) or (<time>) index.
 */
@Injectable()
export class StatsRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /**
   * The last `days` local days of `timeZone`, today included, oldest first, every day present.
   * sent: tasks whose sent_at falls on the day; failed: whose failed_at does; pending: tasks created
   * on the day that are still pending or claimed now.
   */
  dailyCounts(clientId: number | undefined, days: number, timeZone: string): Promise<DailyTaskCount[]> {
    const ofClient = clientId === undefined ? Prisma.empty : Prisma.sql`AND client_id = ${clientId}`;
    const start = Prisma.sql`(SELECT first_instant FROM range)`;
    return this.db.sql.$queryRaw<DailyTaskCount[]>`
      WITH range AS (
        SELECT today - (${days}::int - 1) AS first_day, today,
               ((today - (${days}::int - 1))::timestamp AT TIME ZONE ${timeZone}) AS first_instant
          FROM (SELECT (now() AT TIME ZONE ${timeZone})::date AS today) AS local_today
      ),
      sent AS (
        SELECT (sent_at AT TIME ZONE ${timeZone})::date AS day, count(*) AS n
          FROM "dispatch"."tasks" WHERE sent_at >= ${start} ${ofClient} GROUP BY 1
      ),
      failed AS (
        SELECT (failed_at AT TIME ZONE ${timeZone})::date AS day, count(*) AS n
          FROM "dispatch"."tasks" WHERE failed_at >= ${start} ${ofClient} GROUP BY 1
      ),
      waiting AS (
        SELECT (created_at AT TIME ZONE ${timeZone})::date AS day, count(*) AS n
          FROM "dispatch"."tasks" WHERE created_at >= ${start} AND status IN ('pending', 'claimed') ${ofClient} GROUP BY 1
      )
      SELECT to_char(d.day::timestamp, 'YYYY-MM-DD') AS day,
             COALESCE(sent.n, 0)::int AS sent, COALESCE(failed.n, 0)::int AS failed, COALESCE(waiting.n, 0)::int AS pending
        FROM range, generate_series(range.first_day::timestamp, range.today::timestamp, interval '1 day') AS g(day_start)
        CROSS JOIN LATERAL (SELECT g.day_start::date AS day) AS d
        LEFT JOIN sent ON sent.day = d.day
        LEFT JOIN failed ON failed.day = d.day
        LEFT JOIN waiting ON waiting.day = d.day
       ORDER BY d.day`;
  }

  async countsByStatus(): Promise<Record<TaskStatus, number>> {
    const rows = await this.db.sql.$queryRaw<Array<{ status: TaskStatus; n: number }>>`
      SELECT status::text AS status, count(*)::int AS n FROM "dispatch"."tasks" GROUP BY status`;
    const counts = Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as Record<TaskStatus, number>;
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }

  /** The last `minutes` whole UTC minutes, the current one included, oldest first. */
  async sentPerMinute(minutes: number): Promise<Array<{ minute: string; sent: number }>> {
    const rows = await this.db.sql.$queryRaw<Array<{ minute: Date; sent: number }>>`
      WITH range AS (
        SELECT date_trunc('minute', now(), 'UTC') AS last_minute,
               date_trunc('minute', now(), 'UTC') - (${minutes}::int - 1) * interval '1 minute' AS first_minute
      ),
      sent AS (
        SELECT date_trunc('minute', sent_at, 'UTC') AS minute, count(*) AS n
          FROM "dispatch"."tasks" WHERE sent_at >= (SELECT first_minute FROM range) GROUP BY 1
      )
      SELECT g.minute, COALESCE(sent.n, 0)::int AS sent
        FROM range, generate_series(range.first_minute, range.last_minute, interval '1 minute') AS g(minute)
        LEFT JOIN sent ON sent.minute = g.minute
       ORDER BY g.minute`;
    return rows.map((row) => ({ minute: row.minute.toISOString(), sent: row.sent }));
  }
}
