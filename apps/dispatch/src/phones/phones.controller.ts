import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  GatewayCreateCommand,
  Patterns,
  PhoneGetQuery,
  PhoneHealthReportCommand,
  PhoneLimitsCommand,
  PhoneListQuery,
  PhoneRegisterCommand,
  PhoneRenameCommand,
  PhoneSetNumberCommand,
  PhoneResumeCommand,
  PhoneSetActiveCommand,
  type Ok,
  type PhoneDetails,
  type PhoneRegistered,
  type PhoneView,
} from '@smsq/contracts';
import { PhoneHealthService } from './phone-health.service.js';
import { PhonePauses } from './phone-pauses.js';
import { PhonesService } from './phones.service.js';

@Controller()
export class PhonesController {
  constructor(
    private readonly phones: PhonesService,
    private readonly health: PhoneHealthService,
    private readonly pauses: PhonePauses,
  ) {}

  @MessagePattern(Patterns.dispatch.phoneResume)
  resume(@Payload() command: PhoneResumeCommand): Promise<PhoneView> {
    return this.pauses.resume(command);
  }

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

  @MessagePattern(Patterns.dispatch.phoneList)
  list(@Payload() query: PhoneListQuery): Promise<PhoneDetails[]> {
    return this.phones.list(query);
  }

  @MessagePattern(Patterns.dispatch.phoneRename)
  rename(@Payload() command: PhoneRenameCommand): Promise<PhoneView> {
    return this.phones.rename(command);
  }

  @MessagePattern(Patterns.dispatch.phoneSetNumber)
  setNumber(@Payload() command: PhoneSetNumberCommand): Promise<PhoneView> {
    return this.phones.setNumber(command);
  }

  @MessagePattern(Patterns.dispatch.phoneSetLimits)
  setLimits(@Payload() command: PhoneLimitsCommand): Promise<PhoneView> {
    return this.phones.setLimits(command);
  }

  @MessagePattern(Patterns.dispatch.phoneHealthReport)
  reportHealth(@Payload() command: PhoneHealthReportCommand): Promise<Ok> {
    return this.health.record(command);
  }
}
