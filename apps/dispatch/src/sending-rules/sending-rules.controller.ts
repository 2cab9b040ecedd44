import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, SendingRulesGetQuery, SendingRulesUpdateCommand, type SendingRulesView } from '@smsq/contracts';
import { SendingRulesService } from './sending-rules.service.js';

@Controller()
export class SendingRulesController {
  constructor(private readonly rules: SendingRulesService) {}

  @MessagePattern(Patterns.dispatch.sendingRulesGet)
  get(@Payload() query: SendingRulesGetQuery): Promise<SendingRulesView> {
    return this.rules.get(query);
  }

  @MessagePattern(Patterns.dispatch.sendingRulesUpdate)
  update(@Payload() command: SendingRulesUpdateCommand): Promise<SendingRulesView> {
    return this.rules.update(command);
  }
}
