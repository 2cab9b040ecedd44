import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { ChargesController } from './charges.controller.js';
import { ChargesService } from './charges.service.js';
import { TaskChargesRepository } from './task-charges.repository.js';

@Module({
  imports: [AccountsModule, LedgerModule],
  controllers: [ChargesController],
  providers: [TaskChargesRepository, ChargesService],
  exports: [TaskChargesRepository, ChargesService],
})
export class ChargesModule {}
