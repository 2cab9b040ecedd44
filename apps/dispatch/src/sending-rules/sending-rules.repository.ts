import { Injectable } from '@nestjs/common';
import { DEFAULT_STICKY_DAYS, type RoutingMode, type SendWindow } from '@smsq/contracts';
import { lockUntilCommit } from '../database/advisory-lock.js';
import { inTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';

/** A client's sending rules as stored; a client without a row has the defaults. */
export interface StoredRules {
  routingMode: RoutingMode;
  stickyDays: number;
  sendWindows: SendWindow[];
  windowMinutes: number[];
}

export const DEFAULT_RULES: StoredRules = { routingMode: 'first', stickyDays: DEFAULT_STICKY_DAYS, sendWindows: [], windowMinutes: [] };

@Injectable()
export class SendingRulesRepository {
  constructor(private readonly db: DispatchDatabase) {}

  async find(clientId: number): Promise<StoredRules | null> {
    const rows = await this.db.sql.$queryRaw<StoredRules[]>`
      SELECT routing_mode AS "routingMode", sticky_days AS "stickyDays", send_windows AS "sendWindows", window_minutes AS "windowMinutes"
        FROM "dispatch"."sending_rules" WHERE client_id = ${clientId}`;
    return rows[0] ?? null;
  }

  /**
   * Changes the client's rules under its lock, so that concurrent changes apply one after the
   * other. The windows are read in the client's zone as dispatch last recorded it (a change of zone
   * is versioned: `ClientTimezoneService`), else in `timeZone`, the one the caller knows.
   */
  change(clientId: number, timeZone: string, change: (current: StoredRules) => StoredRules): Promise<{ rules: StoredRules; timeZone: string }> {
    return inTransaction(this.db, async (tx) => {
      await lockUntilCommit(tx, `dispatch.sending-rules:${clientId}`);
      const [current] = await tx.$queryRaw<StoredRules[]>`
        SELECT routing_mode AS "routingMode", sticky_days AS "stickyDays", send_windows AS "sendWindows", window_minutes AS "windowMinutes"
          FROM "dispatch"."sending_rules" WHERE client_id = ${clientId}`;
      const rules = change(current ?? DEFAULT_RULES);
      const [saved] = await tx.$queryRaw<Array<{ timeZone: string }>>`
        INSERT INTO "dispatch"."sending_rules" AS r (client_id, routing_mode, sticky_days, send_windows, window_minutes, time_zone)
        VALUES (${clientId}, ${rules.routingMode}, ${rules.stickyDays}, ${JSON.stringify(rules.sendWindows)}::jsonb, ${rules.windowMinutes}::int[],
                COALESCE((SELECT z.time_zone FROM "dispatch"."client_zones" z WHERE z.client_id = ${clientId}), ${timeZone}))
        ON CONFLICT (client_id) DO UPDATE
          SET routing_mode = EXCLUDED.routing_mode, sticky_days = EXCLUDED.sticky_days, send_windows = EXCLUDED.send_windows,
              window_minutes = EXCLUDED.window_minutes, time_zone = EXCLUDED.time_zone
        RETURNING r.time_zone AS "timeZone"`;
      return { rules, timeZone: saved!.timeZone };
    });
  }
}
