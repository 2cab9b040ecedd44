import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import type { FastifyRequest } from 'fastify';
import type { WorkerTokenHolder } from './worker-tokens.repository.js';
import { WorkerTokensService } from './worker-tokens.service.js';

type WorkerRequest = FastifyRequest & { worker?: WorkerTokenHolder };

/** Worker routes: a worker token in `X-Worker-Token`; an API key is refused here. */
@Injectable()
export class WorkerTokenGuard implements CanActivate {
  constructor(private readonly tokens: WorkerTokensService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<WorkerRequest>();
    const query = request.query as Record<string, unknown> | undefined;
    if (request.headers['x-api-key'] !== undefined || query?.['api_key'] !== undefined) {
      throw new DomainError('unauthorized', 'worker endpoints take a worker token, not an API key');
    }
    const header = request.headers['x-worker-token'];
    const holder = await this.tokens.authenticate(typeof header === 'string' ? header.trim() : undefined);
    if (!holder) throw new DomainError('unauthorized', 'a valid worker token is required in the X-Worker-Token header');
    request.worker = holder;
    return true;
  }
}

/** The phone or worker whose token authenticated this request (set by WorkerTokenGuard). */
export const AuthenticatedWorker = createParamDecorator((_: unknown, context: ExecutionContext): WorkerTokenHolder => {
  const holder = context.switchToHttp().getRequest<WorkerRequest>().worker;
  if (!holder) throw new Error('AuthenticatedWorker used on a route without WorkerTokenGuard');
  return holder;
});
