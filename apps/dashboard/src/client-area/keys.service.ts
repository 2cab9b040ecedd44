import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type KeyRevokeCommand } from '@smsq/contracts';
import type { ApiKeyRow, CreatedApiKey } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';

@Injectable()
export class KeysService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  list(clientId: number): Promise<ApiKeyRow[]> {
    return this.directory.keys(clientId);
  }

  create(clientId: number, name?: string): Promise<CreatedApiKey> {
    return this.directory.createKey(clientId, name);
  }

  /** The gateway checks the key is this client's; another client's key is not found. */
  async revoke(clientId: number, keyId: number): Promise<void> {
    const command: KeyRevokeCommand = { keyId, clientId };
    await this.gateway.send(Patterns.gateway.keyRevoke, command);
  }
}
