import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, PhoneNumberSetCommand, type PhoneView } from '@smsq/contracts';
import { PhoneNumbersService } from './phone-numbers.service.js';

/** The dashboard's and the admin command line's phone numbers: read by the same rules as the public API's. */
@Controller()
export class PhoneNumbersMessagesController {
  constructor(private readonly numbers: PhoneNumbersService) {}

  @MessagePattern(Patterns.gateway.phoneNumberSet)
  set(@Payload() command: PhoneNumberSetCommand): Promise<PhoneView> {
    return this.numbers.set(command);
  }
}
