import { Injectable } from '@nestjs/common';
import { lockUntilCommit } from '../database/advisory-lock.js';
import { inPrismaTransaction, type DbTransaction, type PrismaTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { Phone, PhoneKind } from '../generated/prisma/client.js';
import { waitingCountOf } from '../tasks/waiting-tasks.js';
import { PhoneConditions } from './phone-conditions.js';

export interface NewPhone {
  kind: PhoneKind;
  clientId: number | null;
  name: string;
  url: string | null;
  deviceId: string | null;
}

/** SIM limits to set; a field left out stays as it is, null removes the limit. */
export interface SimLimits {
  dailyLimit?: number | null;
  perMinute?: number | null;
  monthlyRecipients?: number | null;
  jitter?: number | null;
  sims?: number;
  timeZone?: string;
}

/** A phone whose state changed: it went silent, or came back (or was disabled) after it had. */
export interface PhoneTransition {
  id: number;
  clientId: number | null;
  active: boolean;
}

export interface PhoneCounts {
  sentToday: number;
  waitingTasks: number;
  /** SMS parts handed to it today in its owner's zone (counted while it has a daily limit), else the parts of its tasks sent today. */
  partsToday: number;
  recipientsThisMonth: number;
}

/** Waiting tasks counted for a phone, at most: the count shows a backlog, it need not measure it exactly. */
export const WAITING_COUNTED_AT_MOST = 100_000;

export interface ReportedHealth {
  batteryPercent: number | null;
  charging: boolean | null;
  connection: string | null;
}

@Injectable()
export class PhonesRepository {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly conditions: PhoneConditions,
  ) {}

  /** Runs `work` in one transaction holding the client's phone lock, so counting and adding phones do not race. */
  underClientLock<T>(clientId: number, work: (tx: PrismaTransaction) => Promise<T>): Promise<T> {
    return inPrismaTransaction(this.db, async (tx) => {
      await lockUntilCommit(tx, `dispatch.phones:${clientId}`);
      return work(tx);
    });
  }

  findById(id: number): Promise<Phone | null> {
    return this.db.phone.findUnique({ where: { id } });
  }

  findOwnByDevice(clientId: number, deviceId: string, tx: PrismaTransaction): Promise<Phone | null> {
    return tx.phone.findFirst({ where: { kind: 'own', clientId, deviceId } });
  }

  countOwn(clientId: number, tx: PrismaTransaction): Promise<number> {
    return tx.phone.count({ where: { kind: 'own', clientId } });
  }

  /** A known device paired again: that is contact, and a new address it gave is where it is reached. */
  paired(id: number, url: string | undefined, tx: PrismaTransaction): Promise<Phone> {
    return tx.phone.update({ where: { id }, data: { lastContactAt: new Date(), ...(url === undefined ? {} : { url }) } });
  }

  insert(phone: NewPhone, tx?: PrismaTransaction): Promise<Phone> {
    return (tx ?? this.db).phone.create({ data: phone });
  }

  async hasDueTasks(phoneId: number): Promise<boolean> {
    const rows = await this.db.sql.$queryRaw<unknown[]>`
      SELECT 1 FROM "dispatch"."tasks"
       WHERE phone_id = ${phoneId} AND status = 'pending' AND scheduled_at <= now()
       LIMIT 1`;
    return rows.length > 0;
  }

  /** false when there is no phone of that id and kind (and, when given, of that client). */
  async setActive(id: number, kind: PhoneKind, active: boolean, clientId?: number): Promise<boolean> {
    const { count } = await this.db.phone.updateMany({ where: { id, kind, ...ofClient(clientId) }, data: { active } });
    return count > 0;
  }

  /** The renamed phone, or null when there is no phone of that id (and, when given, of that client). */
  async rename(id: number, name: string, clientId?: number): Promise<Phone | null> {
    const { count } = await this.db.phone.updateMany({ where: { id, ...ofClient(clientId) }, data: { name } });
    return count > 0 ? this.findById(id) : null;
  }

  /** The phone with its number recorded, or null when there is no phone of that id and kind (and, when given, of that client). */
  async setNumber(id: number, kind: PhoneKind, number: string | null, clientId?: number): Promise<Phone | null> {
    const { count } = await this.db.phone.updateMany({ where: { id, kind, ...ofClient(clientId) }, data: { number } });
    return count > 0 ? this.findById(id) : null;
  }

  /** Replaces the health of the phone of that id and kind, reported now; false when there is no such phone. */
  async recordHealth(id: number, kind: PhoneKind, health: ReportedHealth): Promise<boolean> {
    const changed = await this.db.sql.$executeRaw`
      UPDATE "dispatch"."phones"
         SET battery_percent = ${health.batteryPercent}::smallint, charging = ${health.charging}::boolean,
             connection = ${health.connection}::text, health_reported_at = now(), last_contact_at = now()
       WHERE id = ${id} AND kind = ${kind}::"dispatch"."phone_kind"`;
    return changed === 1;
  }

  /** The phone with its new limits, or null when there is no phone of that id and kind (and, when given, of that client). */
  async setLimits(id: number, kind: PhoneKind, limits: SimLimits, clientId?: number): Promise<Phone | null> {
    const { count } = await this.db.phone.updateMany({ where: { id, kind, ...ofClient(clientId) }, data: limits });
    return count > 0 ? this.findById(id) : null;
  }



  /**
   * Marks phones that went silent (enabled, out of contact, not announced yet) and clears the mark
   * of those back in contact or disabled, each change made once whichever dispatch instance makes
   * it; `work` runs in the same transaction, so the announcements exist exactly when the changes do.
   */
  transitions<T>(work: (changes: { silent: PhoneTransition[]; back: PhoneTransition[] }, tx: PrismaTransaction) => Promise<T>): Promise<T> {
    return inPrismaTransaction(this.db, async (tx) => {
      const silent = await tx.$queryRaw<PhoneTransition[]>`
        UPDATE "dispatch"."phones" p SET silent_since = now()
         WHERE p.active AND p.silent_since IS NULL AND NOT ${this.conditions.inContact('p')}
        RETURNING p.id, p.client_id AS "clientId", p.active`;
      const back = await tx.$queryRaw<PhoneTransition[]>`
        UPDATE "dispatch"."phones" p SET silent_since = NULL
         WHERE p.silent_since IS NOT NULL AND (NOT p.active OR ${this.conditions.inContact('p')})
        RETURNING p.id, p.client_id AS "clientId", p.active`;
      return work({ silent, back }, tx);
    });
  }

  findMany(ids: readonly number[], tx?: PrismaTransaction): Promise<Phone[]> {
    return (tx ?? this.db).phone.findMany({ where: { id: { in: [...ids] } }, orderBy: { id: 'asc' } });
  }

  /** Due tasks waiting for each phone (pending, their time come, not expired), by phone id; a phone with none is absent. */
  private async waitingFor(phoneIds: readonly number[], tx?: DbTransaction): Promise<Map<number, number>> {
    if (phoneIds.length === 0) return new Map();
    const rows = await (tx ?? this.db.sql).$queryRaw<Array<{ phoneId: number; waiting: number }>>`
      SELECT p.id AS "phoneId", w.waiting FROM unnest(${[...phoneIds]}::int[]) AS p(id)
       CROSS JOIN LATERAL (SELECT ${waitingCountOf(WAITING_COUNTED_AT_MOST)} AS waiting) AS w
       WHERE w.waiting > 0`;
    return new Map(rows.map((row) => [row.phoneId, row.waiting]));
  }

  list(filter: { clientId?: number; kind?: PhoneKind }): Promise<Phone[]> {
    return this.db.phone.findMany({ where: { ...ofClient(filter.clientId), ...(filter.kind ? { kind: filter.kind } : {}) }, orderBy: { id: 'asc' } });
  }

  /**
   * What the phone views count for each phone: sent since the start of today (UTC), due tasks
   * waiting for it, the SMS parts its daily limit counts, and its distinct recipients this month.
   */
  async countsOf(phoneIds: readonly number[], tx?: PrismaTransaction): Promise<Map<number, PhoneCounts>> {
    const sent = await this.sentSince(phoneIds, startOfUtcDay(new Date()), tx);
    const waiting = await this.waitingFor(phoneIds, tx);
    const usage = await this.usageOf(phoneIds, tx);
    return new Map(
      phoneIds.map((id) => {
        const counted = usage.get(id);
        return [
          id,
          {
            sentToday: sent.get(id)?.tasks ?? 0,
            waitingTasks: waiting.get(id) ?? 0,
            partsToday: counted?.partsToday ?? sent.get(id)?.parts ?? 0,
            recipientsThisMonth: counted?.recipientsThisMonth ?? 0,
          },
        ];
      }),
    );
  }

  /** Tasks each phone reported sent since `since`, and their parts, by phone id; a phone with none is absent. */
  private async sentSince(phoneIds: readonly number[], since: Date, tx?: PrismaTransaction): Promise<Map<number, { tasks: number; parts: number }>> {
    if (phoneIds.length === 0) return new Map();
    const rows = await (tx ?? this.db).task.groupBy({ by: ['phoneId'], where: { sentAt: { gte: since }, phoneId: { in: [...phoneIds] } }, _count: { _all: true }, _sum: { parts: true } });
    return new Map(rows.map((row) => [row.phoneId, { tasks: row._count._all, parts: row._sum.parts ?? 0 }]));
  }

  /** The parts counted against each phone's daily limit today (null without one) and its recipients this month, in its owner's zone. */
  private async usageOf(phoneIds: readonly number[], tx?: PrismaTransaction): Promise<Map<number, { partsToday: number | undefined; recipientsThisMonth: number }>> {
    if (phoneIds.length === 0) return new Map();
    const rows = await (tx ?? this.db).$queryRaw<Array<{ id: number; partsToday: number | null; recipientsThisMonth: number }>>`
      SELECT p.id, CASE WHEN p.daily_limit IS NULL THEN NULL WHEN p.day_of = ${this.conditions.localToday('p')} THEN p.day_sends ELSE 0 END AS "partsToday",
             (SELECT count(*)::int FROM "dispatch"."phone_recipients" r WHERE r.phone_id = p.id AND r.month = ${this.conditions.localMonth('p')}) AS "recipientsThisMonth"
        FROM "dispatch"."phones" p WHERE p.id = ANY(${[...phoneIds]}::int[])`;
    return new Map(rows.map((row) => [row.id, { partsToday: row.partsToday ?? undefined, recipientsThisMonth: row.recipientsThisMonth }]));
  }

  /**
   * Pauses a phone the carrier refused for volume, unless it is paused already (many refusals of
   * one batch pause it once): for the next of `stepsS` when its last pause began within a day,
   * else for the first. Answers the phone when this paused it.
   */
  async pause(id: number, reason: string, stepsS: readonly number[], tx: PrismaTransaction): Promise<PhoneTransition | null> {
    const rows = await tx.$queryRaw<PhoneTransition[]>`
      WITH next AS (
        SELECT p.id, CASE WHEN p.paused_at > now() - interval '1 day' THEN LEAST(p.pause_step + 1, ${stepsS.length}) ELSE 1 END AS step
          FROM "dispatch"."phones" p
         WHERE p.id = ${id} AND NOT ${this.conditions.isPaused('p')}
           FOR UPDATE
      )
      UPDATE "dispatch"."phones" p
         SET pause_step = next.step, paused_at = now(), pause_reason = ${reason},
             paused_until = now() + (${[...stepsS]}::int[])[next.step] * interval '1 second'
        FROM next
       WHERE p.id = next.id
      RETURNING p.id, p.client_id AS "clientId", p.active`;
    return rows[0] ?? null;
  }

  /** Ends the pauses that are over, each once whichever dispatch instance sees it first; answers those phones. */
  resumeEnded(tx: PrismaTransaction): Promise<PhoneTransition[]> {
    return tx.$queryRaw<PhoneTransition[]>`
      UPDATE "dispatch"."phones" p SET paused_until = NULL, pause_reason = NULL
       WHERE p.paused_until IS NOT NULL AND p.paused_until <= now()
      RETURNING p.id, p.client_id AS "clientId", p.active`;
  }

  /**
   * Lifts a phone's pause at once (its owner's word); null when there is no paused phone of that id
   * and kind (and, when given, of that client). Its next pause within a day is still longer.
   */
  async resume(id: number, kind: PhoneKind, tx: PrismaTransaction, clientId?: number): Promise<PhoneTransition | null> {
    const rows = await tx.$queryRaw<PhoneTransition[]>`
      UPDATE "dispatch"."phones" p SET paused_until = NULL, pause_reason = NULL
       WHERE p.id = ${id} AND p.kind = ${kind}::"dispatch"."phone_kind" AND (${clientId ?? null}::int IS NULL OR p.client_id = ${clientId ?? null}::int)
         AND ${this.conditions.isPaused('p')}
      RETURNING p.id, p.client_id AS "clientId", p.active`;
    return rows[0] ?? null;
  }

  /** Runs `work` in one Prisma transaction. */
  inTransaction<T>(work: (tx: PrismaTransaction) => Promise<T>): Promise<T> {
    return inPrismaTransaction(this.db, work);
  }
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function ofClient(clientId: number | undefined): { clientId?: number } {
  return clientId === undefined ? {} : { clientId };
}
