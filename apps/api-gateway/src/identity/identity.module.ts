import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { CredentialCache } from './credential-cache.js';
import { CredentialLookup } from './credential-lookup.js';
import { WorkerTokensRepository } from './worker-tokens.repository.js';
import { WorkerTokenGuard } from './worker-token.guard.js';
import { WorkerTokensService } from './worker-tokens.service.js';

/** Who is calling: API keys for clients, worker tokens for phones and workers. */
@Module({
  providers: [ApiKeysRepository, ApiKeysService, WorkerTokensRepository, WorkerTokensService, CredentialCache, CredentialLookup, ApiKeyGuard, WorkerTokenGuard],
  exports: [ApiKeysService, WorkerTokensService, ApiKeyGuard, WorkerTokenGuard],
})
export class IdentityModule {}
