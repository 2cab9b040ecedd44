import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ClientCreateCommand,
  ClientListQuery,
  ClientSetDisabledCommand,
  ClientSetTimezoneCommand,
  ClientPhoneRegisterCommand,
  ClientShowQuery,
  KeyCreateCommand,
  KeyListQuery,
  KeyRevokeCommand,
  Patterns,
  WorkerTokenCreateCommand,
  WorkerTokenListQuery,
  WorkerTokenRevokeCommand,
} from '@smsq/contracts';
import { ClientsService } from '../clients/clients.service.js';
import { ApiKeysService } from '../identity/api-keys.service.js';
import { WorkerTokensService } from '../identity/worker-tokens.service.js';
import { PhonePairingService } from '../phones/phone-pairing.service.js';

/** What the admin command line and the dashboard ask of the gateway over the broker. */
@Controller()
export class AdminController {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
    private readonly tokens: WorkerTokensService,
    private readonly pairing: PhonePairingService,
  ) {}

  @MessagePattern(Patterns.gateway.clientCreate)
  createClient(@Payload() command: ClientCreateCommand) {
    return this.clients.create(command);
  }

  @MessagePattern(Patterns.gateway.clientShow)
  showClient(@Payload() query: ClientShowQuery) {
    return this.clients.show(query.clientId);
  }

  @MessagePattern(Patterns.gateway.clientSetDisabled)
  setClientDisabled(@Payload() command: ClientSetDisabledCommand) {
    return this.clients.setDisabled(command);
  }

  @MessagePattern(Patterns.gateway.clientGet)
  getClient(@Payload() query: ClientShowQuery) {
    return this.clients.get(query.clientId);
  }

  @MessagePattern(Patterns.gateway.clientSetTimezone)
  setClientTimezone(@Payload() command: ClientSetTimezoneCommand) {
    return this.clients.setTimezone(command);
  }

  @MessagePattern(Patterns.gateway.keyCreate)
  createKey(@Payload() command: KeyCreateCommand) {
    return this.keys.create(command.clientId, command.name);
  }

  @MessagePattern(Patterns.gateway.keyRevoke)
  revokeKey(@Payload() command: KeyRevokeCommand) {
    return this.keys.revoke(command);
  }

  @MessagePattern(Patterns.gateway.phoneRegister)
  registerPhone(@Payload() command: ClientPhoneRegisterCommand) {
    return this.pairing.registerOwnPhone(command);
  }

  @MessagePattern(Patterns.gateway.workerTokenCreate)
  createWorkerToken(@Payload() command: WorkerTokenCreateCommand) {
    return this.pairing.issueWorkerToken(command.phoneId);
  }

  @MessagePattern(Patterns.gateway.workerTokenRevoke)
  revokeWorkerToken(@Payload() command: WorkerTokenRevokeCommand) {
    return this.tokens.revoke(command.tokenId);
  }

  @MessagePattern(Patterns.gateway.clientList)
  listClients(@Payload() query: ClientListQuery) {
    return this.clients.list(query);
  }

  @MessagePattern(Patterns.gateway.keyList)
  listKeys(@Payload() query: KeyListQuery) {
    return this.keys.list(query.clientId);
  }

  @MessagePattern(Patterns.gateway.workerTokenList)
  listWorkerTokens(@Payload() query: WorkerTokenListQuery) {
    return this.tokens.list(query);
  }
}
