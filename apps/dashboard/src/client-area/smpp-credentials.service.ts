import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type SmppCredentialCreateCommand, type SmppCredentialCreated, type SmppCredentialListQuery, type SmppCredentialRevokeCommand, type SmppCredentialView } from '@smsq/contracts';
import type { CreatedSmppCredential, SmppCredentials } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { DashboardConfig } from '../config/dashboard-config.js';
import { smppCredentialRowOf } from '../shared/views.js';
import type { SmppCredentialCreateBody } from './dto/smpp-credential-create.body.js';

/** A client's SMPP credentials, kept by the gateway beside its API keys; the gateway checks every one is this client's. */
@Injectable()
export class SmppCredentialsService {
  constructor(
    private readonly config: DashboardConfig,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  /** With where to connect: the public API's host (SMPP is served beside it) and SMSQ_SMPP_PORT. */
  async list(clientId: number): Promise<SmppCredentials> {
    const query: SmppCredentialListQuery = { clientId };
    const credentials = await this.gateway.send<SmppCredentialView[]>(Patterns.gateway.smppCredentialList, query);
    return { credentials: credentials.map(smppCredentialRowOf), connection: { host: new URL(this.config.publicApiUrl).hostname, port: this.config.smppPort } };
  }

  /** A blank system_id asks smsq to pick one; blank source addresses are dropped. */
  async create(clientId: number, body: SmppCredentialCreateBody): Promise<CreatedSmppCredential> {
    const systemId = body.systemId?.trim();
    const sourceAddresses = (body.sourceAddresses ?? []).map((address) => address.trim()).filter((address) => address !== '');
    const command: SmppCredentialCreateCommand = { clientId, ...(systemId ? { systemId } : {}), ...(sourceAddresses.length > 0 ? { sourceAddresses } : {}) };
    const created = await this.gateway.send<SmppCredentialCreated>(Patterns.gateway.smppCredentialCreate, command);
    return { credential: smppCredentialRowOf(created), password: created.password };
  }

  /** Another client's credential is not found. */
  async revoke(clientId: number, id: number): Promise<void> {
    const command: SmppCredentialRevokeCommand = { clientId, id };
    await this.gateway.send(Patterns.gateway.smppCredentialRevoke, command);
  }
}
