import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type PhoneNumberSetCommand, type PhoneSetNumberCommand, type PhoneView } from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import { phoneNumberOf } from './phone-number.js';

/** A phone's or gateway's number as the dashboard or the admin command line gives it: read here as a recipient is, kept by dispatch. */
@Injectable()
export class PhoneNumbersService {
  constructor(
    private readonly config: GatewayConfig,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async set(command: PhoneNumberSetCommand): Promise<PhoneView> {
    const number = phoneNumberOf(command.number, this.config);
    const setNumber: PhoneSetNumberCommand = { phoneId: command.phoneId, kind: command.kind, ...(command.clientId === undefined ? {} : { clientId: command.clientId }), number };
    return this.dispatch.send<PhoneView>(Patterns.dispatch.phoneSetNumber, setNumber);
  }
}
