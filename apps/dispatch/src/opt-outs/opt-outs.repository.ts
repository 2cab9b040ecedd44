import { Injectable } from '@nestjs/common';
import { OPTED_OUT_ERROR, type OptOutSettingsView, type OptOutSource, type OptOutView } from '@smsq/contracts';
import { lockAllSharedUntilCommit, lockAllUntilCommit } from '../database/advisory-lock.js';
import type { DbTransaction } from '../database/db-transaction.js';
import type { PagePosition } from '../database/page-cursor.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';

/** A client's recipient, as creates name it and opt-outs list it. */
export interface ClientNumber {
  clientId: number;
  recipient: string;
}

/** A change of one number's state, and whether it took: a change older than the row's is stale. */
export type ChangeOutcome = 'changed' | 'unchanged' | 'stale';

const DEFAULT_SETTINGS: OptOutSettingsView = { optOutWords: [], optInWords: [], cancelQueued: true };

function lockNames(numbers: readonly ClientNumber[]): string[] {
  return [...new Set(numbers.map(({ clientId, recipient }) => `dispatch.opt-out:${clientId}:${recipient}`))].sort();
}

interface OptOutRow {
  number: string;
  changedAt: Date;
  source: OptOutSource;
}

/**
 * The opt-out lists and settings. A change to a number's state holds its lock exclusively, and a
 * create holds it shared while it stores its task, so a task is either stored before an opt-out
 * (and the opt-out's cancel finds it) or refused after it (docs/decisions.md, "Opt-outs").
 */
@Injectable()
export class OptOutsRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /** Creates hold these until they commit; a change of the same numbers waits for them, and they for it. */
  lockForCreates(tx: DbTransaction, numbers: readonly ClientNumber[]): Promise<void> {
    return lockAllSharedUntilCommit(tx, lockNames(numbers));
  }

  lockForChange(tx: DbTransaction, numbers: readonly ClientNumber[]): Promise<void> {
    return lockAllUntilCommit(tx, lockNames(numbers));
  }

  /** Which of these numbers are on their client's list, as `client:number` strings. */
  async optedOutAmong(numbers: readonly ClientNumber[], tx?: DbTransaction): Promise<Set<string>> {
    if (numbers.length === 0) return new Set();
    const rows = await (tx ?? this.db.sql).$queryRaw<ClientNumber[]>`
      SELECT o.client_id AS "clientId", o.number AS recipient
        FROM "dispatch"."opt_outs" o
        JOIN unnest(${numbers.map((one) => one.clientId)}::int[], ${numbers.map((one) => one.recipient)}::text[]) AS asked(client_id, number)
          ON o.client_id = asked.client_id AND o.number = asked.number
       WHERE o.opted_out`;
    return new Set(rows.map(keyOf));
  }

  /**
   * Sets one number's state as of `at` (a reply's time), unless a change at least as new is
   * recorded: a STOP older than the START that came after it must not put the number back. `at`
   * null is the client's own change, now: it always takes, and is recorded after any change
   * before it, whatever a phone's clock said. A number already in that state keeps its state,
   * and a newer reply moves its date on.
   */
  async change(tx: DbTransaction, clientId: number, number: string, optedOut: boolean, at: Date | null, source: OptOutSource): Promise<ChangeOutcome> {
    const [row] = await tx.$queryRaw<{ optedOut: boolean; changedAt: Date }[]>`
      SELECT opted_out AS "optedOut", changed_at AS "changedAt" FROM "dispatch"."opt_outs" WHERE client_id = ${clientId} AND number = ${number}`;
    if (at !== null && row && row.changedAt.getTime() >= at.getTime()) return 'stale';
    const when = at ?? new Date(Math.max(Date.now(), (row?.changedAt.getTime() ?? 0) + 1));
    if ((row?.optedOut ?? false) === optedOut) {
      if (row && at !== null) await tx.$executeRaw`UPDATE "dispatch"."opt_outs" SET changed_at = ${when} WHERE client_id = ${clientId} AND number = ${number}`;
      return 'unchanged';
    }
    await tx.$executeRaw`
      INSERT INTO "dispatch"."opt_outs" (client_id, number, opted_out, changed_at, source) VALUES (${clientId}, ${number}, ${optedOut}, ${when}, ${source})
      ON CONFLICT (client_id, number) DO UPDATE SET opted_out = EXCLUDED.opted_out, changed_at = EXCLUDED.changed_at, source = EXCLUDED.source`;
    return 'changed';
  }

  /** Puts these numbers on the list as of `at` (the client's change: after any recorded); answers those not on it before. */
  async addMany(tx: DbTransaction, clientId: number, numbers: readonly string[], at: Date, source: OptOutSource): Promise<string[]> {
    const rows = await tx.$queryRaw<{ number: string }[]>`
      INSERT INTO "dispatch"."opt_outs" (client_id, number, opted_out, changed_at, source)
      SELECT ${clientId}, n, true, ${at}, ${source} FROM unnest(${[...numbers]}::text[]) AS n
      ON CONFLICT (client_id, number) DO UPDATE
        SET opted_out = true, changed_at = GREATEST(EXCLUDED.changed_at, "dispatch"."opt_outs".changed_at + interval '1 millisecond'), source = EXCLUDED.source
       WHERE NOT "dispatch"."opt_outs".opted_out
      RETURNING number`;
    return rows.map((row) => row.number);
  }

  /** The client's queued tasks to these numbers fail as opted out; answers their ids and task keys. */
  async failQueuedTo(tx: DbTransaction, clientId: number, numbers: readonly string[]): Promise<{ id: number; taskKey: string }[]> {
    if (numbers.length === 0) return [];
    return tx.$queryRaw<{ id: number; taskKey: string }[]>`
      UPDATE "dispatch"."tasks" SET status = 'failed', failed_at = now(), error = ${OPTED_OUT_ERROR}
       WHERE recipient = ANY (${[...numbers]}::text[]) AND client_id = ${clientId} AND status = 'pending'
      RETURNING id, task_key AS "taskKey"`;
  }

  async page(clientId: number, limit: number, after: PagePosition | undefined, search: string | undefined): Promise<OptOutView[]> {
    const from = after ? Prisma.sql`AND (changed_at, number) < (${after.at}, ${after.key})` : Prisma.empty;
    // The search is digits and at most a leading +: nothing in it means anything to LIKE.
    const containing = search ? Prisma.sql`AND number LIKE ${`%${search}%`}` : Prisma.empty;
    const rows = await this.db.sql.$queryRaw<OptOutRow[]>`
      SELECT number, changed_at AS "changedAt", source FROM "dispatch"."opt_outs"
       WHERE client_id = ${clientId} AND opted_out ${from} ${containing}
       ORDER BY changed_at DESC, number DESC
       LIMIT ${limit}`;
    return rows.map((row) => ({ number: row.number, optedOutAt: row.changedAt.toISOString(), source: row.source }));
  }

  async settingsOf(clientId: number): Promise<OptOutSettingsView> {
    const row = await this.db.optOutSetting.findUnique({ where: { clientId } });
    return row ? { optOutWords: row.optOutWords, optInWords: row.optInWords, cancelQueued: row.cancelQueued } : { ...DEFAULT_SETTINGS };
  }

  async saveSettings(clientId: number, settings: OptOutSettingsView): Promise<void> {
    await this.db.optOutSetting.upsert({ where: { clientId }, create: { clientId, ...settings }, update: settings });
  }
}

export function keyOf({ clientId, recipient }: ClientNumber): string {
  return `${clientId}:${recipient}`;
}
