import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  GatewayCreateCommand,
  Patterns,
  PhoneGetQuery,
  PhoneRegisterCommand,
  PhoneSetActiveCommand,
  type Ok,
  type PhoneRegistered,
  type PhoneView,
} from '@smsq/contracts';
import { PhonesService } from './phones.service.js';

@Controller()
export class PhonesController {
  constructor(private readonly phones: PhonesService) {}

  @MessagePattern(Patterns.dispatch.phoneRegister)
  register(@Payload() command: PhoneRegisterCommand): Promise<PhoneRegistered> {
    return this.phones.register(command);
  }

  @MessagePattern(Patterns.dispatch.gatewayCreate)
  createGateway(@Payload() command: GatewayCreateCommand): Promise<PhoneView> {
    return this.phones.createGateway(command);
  }

  @MessagePattern(Patterns.dispatch.phoneGet)
  get(@Payload() query: PhoneGetQuery): Promise<PhoneView> {
    return this.phones.get(query);
  }

  @MessagePattern(Patterns.dispatch.phoneSetActive)
  setActive(@Payload() command: PhoneSetActiveCommand): Promise<Ok> {
    return this.phones.setActive(command);
  }
}
