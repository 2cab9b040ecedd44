import { Module } from '@nestjs/common';
import { ChargesModule } from '../charges/charges.module.js';
import { SettlementSweeper } from './settlement-sweeper.js';

@Module({
  imports: [ChargesModule],
  providers: [SettlementSweeper],
})
export class SettlementModule {}
