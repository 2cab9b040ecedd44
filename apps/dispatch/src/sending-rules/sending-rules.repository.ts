import { Injectable } from '@nestjs/common';
import { DEFAULT_STICKY_DAYS, type RoutingMode, type SendWindow } from '@smsq/contracts';
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

  /** Stores the whole rules of the client, in the zone its windows are read in. */
  async save(clientId: number, rules: StoredRules, timeZone: string): Promise<void> {
    await this.db.sql.$executeRaw`
      INSERT INTO "dispatch"."sending_rules" (client_id, routing_mode, sticky_days, send_windows, window_minutes, time_zone)
      VALUES (${clientId}, ${rules.routingMode}, ${rules.stickyDays}, ${JSON.stringify(rules.sendWindows)}::jsonb, ${rules.windowMinutes}::int[], ${timeZone})
      ON CONFLICT (client_id) DO UPDATE
        SET routing_mode = EXCLUDED.routing_mode, sticky_days = EXCLUDED.sticky_days, send_windows = EXCLUDED.send_windows,
            window_minutes = EXCLUDED.window_minutes, time_zone = EXCLUDED.time_zone`;
  }
}
