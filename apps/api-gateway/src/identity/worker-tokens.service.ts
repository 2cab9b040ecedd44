import { Injectable } from '@nestjs/common';
import { NotFoundError, type Ok, type WorkerTokenCreated, type WorkerTokenListQuery, type WorkerTokenView } from '@smsq/contracts';
import { isStoredId } from './stored-id.js';
import { CredentialCache } from './credential-cache.js';
import { CredentialLookup, type CredentialSource } from './credential-lookup.js';
import { issueSecret } from './secret.js';
import { WorkerTokensRepository, type WorkerTokenHolder } from './worker-tokens.repository.js';

@Injectable()
export class WorkerTokensService {
  private readonly source: CredentialSource<WorkerTokenHolder>;

  constructor(
    private readonly tokens: WorkerTokensRepository,
    private readonly cache: CredentialCache,
    private readonly lookup: CredentialLookup,
  ) {
    this.source = {
      kind: 'wkr',
      findActive: (hash) => this.tokens.findActiveHolder(hash),
      touch: (id) => this.tokens.touch(id),
      idOf: (holder) => holder.tokenId,
    };
  }

  async issue(phoneId: number | null): Promise<WorkerTokenCreated> {
    const secret = issueSecret('wkr');
    const tokenId = await this.tokens.insert(phoneId, secret.prefix, secret.hash);
    return { tokenId, prefix: secret.prefix, workerToken: secret.raw };
  }

  /** A fresh token for a phone whose earlier tokens stop working at once. */
  async reissueForPhone(phoneId: number): Promise<WorkerTokenCreated> {
    const hashes = await this.tokens.revokeAllOfPhone(phoneId);
    for (const hash of hashes) await this.cache.revoke('wkr', hash);
    return this.issue(phoneId);
  }

  async revoke(tokenId: number): Promise<Ok> {
    const hash = isStoredId(tokenId) ? await this.tokens.revoke(tokenId) : undefined;
    if (hash === undefined) throw new NotFoundError('worker token');
    await this.cache.revoke('wkr', hash);
    return { ok: true };
  }

  /** For an admin: every token, or one phone's, newest first; never the token itself. */
  async list(query: WorkerTokenListQuery): Promise<WorkerTokenView[]> {
    if (query.phoneId !== undefined && !isStoredId(query.phoneId)) return [];
    return this.tokens.list(query.phoneId);
  }

  authenticate(raw: string | undefined): Promise<WorkerTokenHolder | undefined> {
    return this.lookup.resolve(raw, this.source);
  }
}
