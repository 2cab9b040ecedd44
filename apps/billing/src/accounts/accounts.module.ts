import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module.js';
import { AccountTransactions } from './account-transactions.js';
import { AccountsController } from './accounts.controller.js';
import { AccountsRepository } from './accounts.repository.js';
import { AccountsService } from './accounts.service.js';

@Module({
  imports: [LedgerModule],
  controllers: [AccountsController],
  providers: [AccountsRepository, AccountTransactions, AccountsService],
  exports: [AccountsRepository, AccountTransactions],
})
export class AccountsModule {}
