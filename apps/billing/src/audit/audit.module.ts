import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { ChargesModule } from '../charges/charges.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { LedgerAudit } from './ledger-audit.service.js';

@Module({
  imports: [AccountsModule, ChargesModule, LedgerModule],
  providers: [LedgerAudit],
  exports: [LedgerAudit],
})
export class AuditModule {}
