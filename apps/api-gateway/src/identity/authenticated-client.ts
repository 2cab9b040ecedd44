import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyOwner } from './api-keys.repository.js';

export type ClientRequest = FastifyRequest & { apiClient?: ApiKeyOwner };

/** The client whose API key authenticated this request (set by ApiKeyGuard). */
export const AuthenticatedClient = createParamDecorator((_: unknown, context: ExecutionContext): ApiKeyOwner => {
  const owner = context.switchToHttp().getRequest<ClientRequest>().apiClient;
  if (!owner) throw new Error('AuthenticatedClient used on a route without ApiKeyGuard');
  return owner;
});
