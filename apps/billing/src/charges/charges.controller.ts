import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DebitBatchCommand, DebitCommand, Patterns, RefundCommand, type BatchAnswer, type DebitResult, type RefundResult } from '@smsq/contracts';
import { ChargesService } from './charges.service.js';

@Controller()
export class ChargesController {
  constructor(private readonly charges: ChargesService) {}

  @MessagePattern(Patterns.billing.debit)
  debit(@Payload() command: DebitCommand): Promise<DebitResult> {
    return this.charges.debit(command);
  }

  @MessagePattern(Patterns.billing.debitBatch)
  async debitBatch(@Payload() command: DebitBatchCommand): Promise<BatchAnswer<DebitResult>> {
    return { results: await this.charges.debitMany(command.debits) };
  }

  @MessagePattern(Patterns.billing.refund)
  refund(@Payload() command: RefundCommand): Promise<RefundResult> {
    return this.charges.refund(command);
  }
}
