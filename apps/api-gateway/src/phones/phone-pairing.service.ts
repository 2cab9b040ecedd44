import { Inject, Injectable } from '@nestjs/common';
import {
  InvalidRequestError,
  NotFoundError,
  Patterns,
  type AccountView,
  type ClientPhoneRegisterCommand,
  type ClientPhoneRegistered,
  type PhoneRegisterCommand,
  type PhoneRegistered,
  type PhoneView,
  type WorkerTokenCreated,
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientsService } from '../clients/clients.service.js';
import { GatewayConfig } from '../config/gateway-config.js';
import { WorkerTokensService } from '../identity/worker-tokens.service.js';

/** Pairs phones with worker tokens: a token is what a phone or worker polls with. */
@Injectable()
export class PhonePairingService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly clients: ClientsService,
    private readonly tokens: WorkerTokensService,
    @Inject(serviceClientToken('billing')) private readonly billing: ServiceClient,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  /** Profile A: a client's own phone within its plan's limit; the same device again gets a fresh token. */
  /** Profile B has no own phones: phone registration does not exist there. */
  requireOwnPhones(): void {
    if (this.config.profile !== 'A') throw new NotFoundError('phone registration');
  }

  async registerOwnPhone(command: ClientPhoneRegisterCommand): Promise<ClientPhoneRegistered> {
    this.requireOwnPhones();
    await this.clients.requireExisting(command.clientId);
    const account = await this.billing.send<AccountView>(Patterns.billing.accountShow, { clientId: command.clientId });
    const register: PhoneRegisterCommand = {
      clientId: command.clientId,
      name: command.name,
      deviceId: command.deviceId,
      url: command.url,
      phoneLimit: account.phoneLimit,
    };
    const { phone } = await this.dispatch.send<PhoneRegistered>(Patterns.dispatch.phoneRegister, register);
    const token = await this.tokens.reissueForPhone(phone.id);
    return { phoneId: phone.id, workerToken: token.workerToken };
  }

  /** A worker token bound to a phone or gateway; unbound tokens exist only for the pooled profile. */
  async issueWorkerToken(phoneId: number | undefined): Promise<WorkerTokenCreated> {
    if (phoneId === undefined) {
      if (this.config.profile === 'A') throw new InvalidRequestError('in profile A a worker token belongs to a phone: pass --phone');
      return this.tokens.issue(null);
    }
    await this.dispatch.send<PhoneView>(Patterns.dispatch.phoneGet, { phoneId });
    return this.tokens.issue(phoneId);
  }
}
