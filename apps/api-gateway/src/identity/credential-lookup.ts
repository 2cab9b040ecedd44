import { Injectable, Logger } from '@nestjs/common';
import { CredentialCache } from './credential-cache.js';
import { hashSecret, isWellFormedSecret, type SecretKind } from './secret.js';

export interface CredentialSource<T> {
  kind: SecretKind;
  findActive(hash: string): Promise<T | undefined>;
  touch(id: number): Promise<void>;
  idOf(found: T): number;
}

/** Resolves a raw credential through the cache, then the database; malformed or revoked ones resolve to nothing. */
@Injectable()
export class CredentialLookup {
  private readonly logger = new Logger(CredentialLookup.name);

  constructor(private readonly cache: CredentialCache) {}

  async resolve<T extends object>(raw: string | undefined, source: CredentialSource<T>): Promise<T | undefined> {
    if (raw === undefined || !isWellFormedSecret(raw, source.kind)) return undefined;
    const hash = hashSecret(raw);
    const cached = await this.cache.get<T>(source.kind, hash);
    if (cached.revoked) return undefined;
    let found = cached.value;
    if (!found) {
      found = await source.findActive(hash);
      if (!found) return undefined;
      await this.cache.set(source.kind, hash, found);
    }
    const id = source.idOf(found);
    if (await this.cache.shouldTouch(source.kind, id)) {
      source.touch(id).catch((error: Error) => this.logger.warn(`last_used_at not updated: ${error.message}`));
    }
    return found;
  }
}
