import { Injectable } from '@nestjs/common';
import { NotFoundError, type KeyCreated, type KeyRevokeCommand, type KeyView, type Ok } from '@smsq/contracts';
import { isStoredId } from './stored-id.js';
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

  async create(clientId: number, name?: string): Promise<KeyCreated> {
    const secret = issueSecret('key');
    const keyId = await this.keys.insert(clientId, secret.prefix, secret.hash, name?.trim() || null);
    return { keyId, prefix: secret.prefix, apiKey: secret.raw };
  }

  /** With `clientId` a client revokes its own key: another client's key is as unknown as a missing one. */
  async revoke(command: KeyRevokeCommand): Promise<Ok> {
    const owned = isStoredId(command.keyId) && (command.clientId === undefined || isStoredId(command.clientId));
    const hash = owned ? await this.keys.revoke(command.keyId, command.clientId) : undefined;
    if (hash === undefined) throw new NotFoundError('API key');
    await this.cache.revoke('key', hash);
    return { ok: true };
  }

  /**
   * After a client was disabled or enabled: its keys' cached owners go, so every gateway refuses
   * (or accepts again) them at once. A disabled client's keys are blocked like revoked ones; the
   * database, which refuses a disabled client's keys, decides once the block is lifted.
   */
  async clientDisabledChanged(clientId: number, disabled: boolean): Promise<void> {
    for (const hash of await this.keys.liveHashesOfClient(clientId)) {
      if (disabled) await this.cache.revoke('key', hash);
      else await this.cache.unrevoke('key', hash);
    }
  }

  /** After a client's time zone changed: its keys' cached owners carry the new zone on every gateway at once. */
  async clientChanged(clientId: number): Promise<void> {
    for (const { hash, owner } of await this.keys.activeOwnersOfClient(clientId)) await this.cache.replace('key', hash, owner);
  }

  /** A client's keys, newest first, revoked ones included; never the key itself. */
  async list(clientId: number): Promise<KeyView[]> {
    const keys = isStoredId(clientId) ? await this.keys.listOfClient(clientId) : undefined;
    if (!keys) throw new NotFoundError('client');
    return keys;
  }

  /** The client a raw key belongs to, or undefined for a missing, malformed, unknown or revoked key. */
  authenticate(raw: string | undefined): Promise<ApiKeyOwner | undefined> {
    return this.lookup.resolve(raw, this.source);
  }
}
