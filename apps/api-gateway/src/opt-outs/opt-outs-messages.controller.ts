import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { OptOutRemoveFromDashboard, OptOutsAddFromDashboard, Patterns, type Ok } from '@smsq/contracts';
import { OptOutsService } from './opt-outs.service.js';

/** The dashboard's changes to a client's opt-out list: numbers read by the same rules as the public API's. */
@Controller()
export class OptOutsMessagesController {
  constructor(private readonly optOuts: OptOutsService) {}

  @MessagePattern(Patterns.gateway.optOutsAdd)
  add(@Payload() command: OptOutsAddFromDashboard) {
    return this.optOuts.add(command.clientId, { numbers: command.numbers }, 'dashboard');
  }

  @MessagePattern(Patterns.gateway.optOutRemove)
  remove(@Payload() command: OptOutRemoveFromDashboard): Promise<Ok> {
    return this.optOuts.remove(command.clientId, command.number, 'dashboard');
  }
}
