import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { ApiKeysService } from './api-keys.service.js';
import type { ClientRequest } from './authenticated-client.js';

/** Client routes: an API key from `X-API-Key` or `?api_key=`; a worker token is refused here. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeysService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ClientRequest>();
    if (request.headers['x-worker-token'] !== undefined) {
      throw new DomainError('unauthorized', 'client endpoints take an API key, not a worker token');
    }
    const owner = await this.keys.authenticate(presentedKey(request));
    if (!owner) throw new DomainError('unauthorized', 'a valid API key is required in the X-API-Key header');
    request.apiClient = owner;
    return true;
  }
}

function presentedKey(request: ClientRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return header.trim();
  if (header !== undefined) return undefined;
  const query = (request.query as Record<string, unknown> | undefined)?.['api_key'];
  return typeof query === 'string' ? query.trim() : undefined;
}
