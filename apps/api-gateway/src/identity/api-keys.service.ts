import { Injectable } from '@nestjs/common';
import { NotFoundError, type KeyCreated, type Ok } from '@smsq/contracts';
import { ApiKeysRepository, type ApiKeyOwner } from './api-keys.repository.js';
import { CredentialCache } from './credential-cache.js';
import { CredentialLookup, type CredentialSource } from './credential-lookup.js';
import { issueSecret } from './secret.js';

@Injectable()
export class ApiKeysService {
  private readonly source: CredentialSource<ApiKeyOwner>;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly cache: CredentialCache,
    private readonly lookup: CredentialLookup,
  ) {
    this.source = {
      kind: 'key',
      findActive: (hash) => this.keys.findActiveOwner(hash),
      touch: (id) => this.keys.touch(id),
      idOf: (owner) => owner.keyId,
    };
  }

  async create(clientId: number): Promise<KeyCreated> {
    const secret = issueSecret('key');
    const keyId = await this.keys.insert(clientId, secret.prefix, secret.hash);
    return { keyId, prefix: secret.prefix, apiKey: secret.raw };
  }

  async revoke(keyId: number): Promise<Ok> {
    const hash = await this.keys.revoke(keyId);
    if (hash === undefined) throw new NotFoundError('API key');
    await this.cache.revoke('key', hash);
    return { ok: true };
  }

  /** The client a raw key belongs to, or undefined for a missing, malformed, unknown or revoked key. */
  authenticate(raw: string | undefined): Promise<ApiKeyOwner | undefined> {
    return this.lookup.resolve(raw, this.source);
  }
}
