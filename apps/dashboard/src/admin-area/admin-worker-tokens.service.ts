import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type WorkerTokenCreateCommand, type WorkerTokenCreated, type WorkerTokenListQuery, type WorkerTokenRevokeCommand, type WorkerTokenView } from '@smsq/contracts';
import type { CreatedWorkerToken, WorkerTokenRow } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { createdWorkerTokenOf, workerTokenRowOf } from '../shared/views.js';

@Injectable()
export class AdminWorkerTokensService {
  constructor(@Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient) {}

  async list(): Promise<WorkerTokenRow[]> {
    const query: WorkerTokenListQuery = {};
    return (await this.gateway.send<WorkerTokenView[]>(Patterns.gateway.workerTokenList, query)).map(workerTokenRowOf);
  }

  async create(phoneId: number | undefined): Promise<CreatedWorkerToken> {
    const command: WorkerTokenCreateCommand = phoneId === undefined ? {} : { phoneId };
    return createdWorkerTokenOf(await this.gateway.send<WorkerTokenCreated>(Patterns.gateway.workerTokenCreate, command));
  }

  async revoke(tokenId: number): Promise<void> {
    const command: WorkerTokenRevokeCommand = { tokenId };
    await this.gateway.send(Patterns.gateway.workerTokenRevoke, command);
  }
}
