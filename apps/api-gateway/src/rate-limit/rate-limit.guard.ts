import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import type { FastifyReply } from 'fastify';
import type { ClientRequest } from '../identity/authenticated-client.js';
import { RateLimiter } from './rate-limiter.js';

/** Runs after ApiKeyGuard: each API key has its own bucket. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.limiter.enabled) return true;
    const owner = context.switchToHttp().getRequest<ClientRequest>().apiClient;
    if (!owner) return true;
    const decision = await this.limiter.take(`key:${owner.keyId}`);
    if (decision.allowed) return true;
    void context.switchToHttp().getResponse<FastifyReply>().header('Retry-After', String(decision.retryAfterS));
    throw new DomainError('rate_limited', `too many requests for this API key; retry in ${decision.retryAfterS} s`);
  }
}
