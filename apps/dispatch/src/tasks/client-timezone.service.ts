import { Injectable } from '@nestjs/common';
import type { ClientTimezoneChangedCommand, Ok } from '@smsq/contracts';
import { inTransaction } from '../database/db-transaction.js';
import { isStoredId } from '../database/stored-id.js';
import { DispatchDatabase } from '../database/dispatch-database.js';

/**
 * A client's time zone changed. Its tasks keep their instants (one scheduled for 09:00 in the old
 * zone still goes out at that moment); their local `scheduled_at` is rendered in the zone kept here
 * whenever it is read, so nothing stored is rewritten and no create or second change can race it.
 * A change older than the one kept (by the gateway's count) changes nothing.
 */
@Injectable()
export class ClientTimezoneService {
  constructor(private readonly db: DispatchDatabase) {}

  async timezoneChanged(command: ClientTimezoneChangedCommand): Promise<Ok> {
    if (!isStoredId(command.clientId)) return { ok: true };
    await inTransaction(this.db, async (tx) => {
      const taken = await tx.$executeRaw`
        INSERT INTO "dispatch"."client_zones" AS z (client_id, time_zone, version) VALUES (${command.clientId}, ${command.timezone}, ${command.version})
        ON CONFLICT (client_id) DO UPDATE SET time_zone = excluded.time_zone, version = excluded.version
         WHERE z.version < excluded.version`;
      // Its phones' daily limits and recipient caps count the days and months of the zone it now has, and its send windows are its hours there.
      if (taken === 1) {
        await tx.$executeRaw`UPDATE "dispatch"."phones" SET time_zone = ${command.timezone} WHERE client_id = ${command.clientId}`;
        await tx.$executeRaw`UPDATE "dispatch"."sending_rules" SET time_zone = ${command.timezone} WHERE client_id = ${command.clientId}`;
      }
    });
    return { ok: true };
  }
}
