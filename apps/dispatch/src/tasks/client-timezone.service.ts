import { Injectable } from '@nestjs/common';
import type { ClientTimezoneChangedCommand, Ok } from '@smsq/contracts';
import { isStoredId } from '../database/stored-id.js';
import { DispatchDatabase } from '../database/dispatch-database.js';

/**
 * A client's time zone changed. Its tasks keep their instants (one scheduled for 09:00 in the old
 * zone still goes out at that moment), and their local `scheduled_at` is written again as the
 * wall-clock time of that instant in the new zone, so every local time the client sees is in the
 * zone it now has.
 */
@Injectable()
export class ClientTimezoneService {
  constructor(private readonly db: DispatchDatabase) {}

  async timezoneChanged(command: ClientTimezoneChangedCommand): Promise<Ok> {
    if (!isStoredId(command.clientId)) return { ok: true };
    await this.rewriteScheduledLocal(command.clientId, command.timezone);
    // Its phones' daily limits count the days of the zone it now has.
    await this.db.phone.updateMany({ where: { clientId: command.clientId }, data: { timeZone: command.timezone } });
    return { ok: true };
  }

  private async rewriteScheduledLocal(clientId: number, timeZone: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE "dispatch"."tasks" SET scheduled_local = to_char(scheduled_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')
       WHERE client_id = ${clientId} AND scheduled_local <> to_char(scheduled_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')`;
  }
}
