import { Injectable } from '@nestjs/common';
import type { BillingTransaction } from '../database/billing-database.js';
import type { TaskCharge } from '../generated/prisma/client.js';
import type { CreditBucket } from '../generated/prisma/enums.js';

@Injectable()
export class TaskChargesRepository {
  async find(tx: BillingTransaction, taskKey: string): Promise<TaskCharge | null> {
    return tx.taskCharge.findUnique({ where: { taskKey } });
  }

  async create(tx: BillingTransaction, charge: { taskKey: string; clientId: number; bucket: CreditBucket; debitedAt: Date }): Promise<void> {
    await tx.taskCharge.create({ data: charge });
  }

  async markRefunded(tx: BillingTransaction, taskKey: string, at: Date): Promise<void> {
    await tx.taskCharge.update({ where: { taskKey }, data: { state: 'refunded', settledAt: at } });
  }

  /** Keeps a charge that is still held; false when it was settled some other way meanwhile. */
  async markKept(tx: BillingTransaction, taskKey: string, at: Date): Promise<boolean> {
    const { count } = await tx.taskCharge.updateMany({ where: { taskKey, state: 'held' }, data: { state: 'kept', settledAt: at } });
    return count === 1;
  }

  /** Held charges debited before `debitedBefore`, oldest first. */
  async heldSince(tx: BillingTransaction, debitedBefore: Date, limit: number): Promise<TaskCharge[]> {
    return tx.taskCharge.findMany({
      where: { state: 'held', debitedAt: { lt: debitedBefore } },
      orderBy: { debitedAt: 'asc' },
      take: limit,
    });
  }

  async chargesOf(tx: BillingTransaction, clientId: number): Promise<TaskCharge[]> {
    return tx.taskCharge.findMany({ where: { clientId } });
  }
}
