import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, SmppTaskEndedCommand, type Ok } from '@smsq/contracts';
import { ReceiptsService } from './receipts.service.js';

@Controller()
export class ReceiptsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @MessagePattern(Patterns.smpp.taskEnded)
  taskEnded(@Payload() command: SmppTaskEndedCommand): Promise<Ok> {
    return this.receipts.taskEnded(command);
  }
}
