import { Injectable } from '@nestjs/common';
import { lockUntilCommit } from '../database/advisory-lock.js';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { Phone, PhoneKind } from '../generated/prisma/client.js';

export interface NewPhone {
  kind: PhoneKind;
  clientId: number | null;
  name: string;
  url: string | null;
  deviceId: string | null;
}

/** A health report; null where the phone did not say. */
export interface ReportedHealth {
  batteryPercent: number | null;
  charging: boolean | null;
  connection: string | null;
}

@Injectable()
export class PhonesRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /** Runs `work` in one transaction holding the client's phone lock, so counting and adding phones do not race. */
  underClientLock<T>(clientId: number, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (tx) => {
      await lockUntilCommit(tx, `dispatch.phones:${clientId}`);
      return work(tx);
    });
  }

  findById(id: number): Promise<Phone | null> {
    return this.db.phone.findUnique({ where: { id } });
  }

  findOwnByDevice(clientId: number, deviceId: string, tx: DbTransaction): Promise<Phone | null> {
    return tx.phone.findFirst({ where: { kind: 'own', clientId, deviceId } });
  }

  countOwn(clientId: number, tx: DbTransaction): Promise<number> {
    return tx.phone.count({ where: { kind: 'own', clientId } });
  }

  /** The phone at its new delivery address. */
  moveTo(id: number, url: string, tx: DbTransaction): Promise<Phone> {
    return tx.phone.update({ where: { id }, data: { url } });
  }

  insert(phone: NewPhone, tx?: DbTransaction): Promise<Phone> {
    return (tx ?? this.db).phone.create({ data: phone });
  }

  async hasDueTasks(phoneId: number): Promise<boolean> {
    const rows = await this.db.$queryRaw<unknown[]>`
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

  /** Replaces the health of the phone of that id and kind, reported now; false when there is no such phone. */
  async recordHealth(id: number, kind: PhoneKind, health: ReportedHealth): Promise<boolean> {
    const changed = await this.db.$executeRaw`
      UPDATE "dispatch"."phones"
         SET battery_percent = ${health.batteryPercent}::smallint, charging = ${health.charging}::boolean,
             connection = ${health.connection}::text, health_reported_at = now()
       WHERE id = ${id} AND kind = ${kind}::"dispatch"."phone_kind"`;
    return changed === 1;
  }

  list(filter: { clientId?: number; kind?: PhoneKind }): Promise<Phone[]> {
    return this.db.phone.findMany({ where: { ...ofClient(filter.clientId), ...(filter.kind ? { kind: filter.kind } : {}) }, orderBy: { id: 'asc' } });
  }

  /** Tasks each phone reported sent since `since`, by phone id; a phone with none is absent. */
  async sentSince(phoneIds: number[], since: Date): Promise<Map<number, number>> {
    if (phoneIds.length === 0) return new Map();
    const rows = await this.db.task.groupBy({ by: ['phoneId'], where: { sentAt: { gte: since }, phoneId: { in: phoneIds } }, _count: { _all: true } });
    return new Map(rows.map((row) => [row.phoneId, row._count._all]));
  }
}

function ofClient(clientId: number | undefined): { clientId?: number } {
  return clientId === undefined ? {} : { clientId };
}
