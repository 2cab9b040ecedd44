import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  Patterns,
  SmppCredentialActiveQuery,
  SmppCredentialAuthenticateQuery,
  SmppCredentialCreateCommand,
  SmppCredentialListQuery,
  SmppCredentialRevokeCommand,
  type SmppBindAnswer,
  type SmppCredentialCreated,
  type SmppCredentialView,
} from '@smsq/contracts';
import { SmppCredentialsService } from './smpp-credentials.service.js';

/** What the dashboard and the admin command line (create, list, revoke) and the smpp service (authenticate, active) ask. */
@Controller()
export class SmppCredentialsMessagesController {
  constructor(private readonly credentials: SmppCredentialsService) {}

  @MessagePattern(Patterns.gateway.smppCredentialCreate)
  create(@Payload() command: SmppCredentialCreateCommand): Promise<SmppCredentialCreated> {
    return this.credentials.create(command.clientId, { systemId: command.systemId, sourceAddresses: command.sourceAddresses });
  }

  @MessagePattern(Patterns.gateway.smppCredentialList)
  list(@Payload() query: SmppCredentialListQuery): Promise<SmppCredentialView[]> {
    return this.credentials.list(query.clientId);
  }

  @MessagePattern(Patterns.gateway.smppCredentialRevoke)
  revoke(@Payload() command: SmppCredentialRevokeCommand): Promise<SmppCredentialView> {
    return this.credentials.revoke(command.clientId, command.id);
  }

  @MessagePattern(Patterns.gateway.smppCredentialAuthenticate)
  authenticate(@Payload() query: SmppCredentialAuthenticateQuery): Promise<SmppBindAnswer> {
    return this.credentials.authenticate(query.systemId, query.password);
  }

  @MessagePattern(Patterns.gateway.smppCredentialActive)
  active(@Payload() query: SmppCredentialActiveQuery): Promise<number[]> {
    return this.credentials.active(query.ids);
  }
}
