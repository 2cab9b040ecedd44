import { Injectable } from '@nestjs/common';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { TaskChargesRepository } from '../charges/task-charges.repository.js';
import { BillingDatabase, type BillingSnapshot } from '../database/billing-database.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { auditLedger, type LedgerAuditReport } from './ledger-invariant.js';

/** Checks the ledger invariant against what is stored, for tests and operators. */
@Injectable()
export class LedgerAudit {
  constructor(
    private readonly database: BillingDatabase,
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerRepository,
    private readonly charges: TaskChargesRepository,
  ) {}

  audit(clientId: number): Promise<LedgerAuditReport> {
    return this.database.snapshot((tx) => this.auditIn(tx, clientId));
  }

  /** Every account, read at one moment. */
  auditAll(): Promise<LedgerAuditReport[]> {
    return this.database.snapshot(async (tx) => {
      const reports: LedgerAuditReport[] = [];
      for (const clientId of await this.accounts.clientIds(tx)) reports.push(await this.auditIn(tx, clientId));
      return reports;
    });
  }

  private async auditIn(tx: BillingSnapshot, clientId: number): Promise<LedgerAuditReport> {
    const [balances, entries, charges] = await Promise.all([
      this.accounts.find(tx, clientId),
      this.ledger.entriesOf(tx, clientId),
      this.charges.chargesOf(tx, clientId),
    ]);
    return auditLedger({ clientId, balances, entries, charges });
  }
}
