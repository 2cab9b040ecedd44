import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { UNPARSABLE_BODY } from '@smsq/platform';
import type { FastifyRequest } from 'fastify';

/** SMSGate mode reads every body as JSON and only marks one that is not; the control routes refuse it before their validation sees it. */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<FastifyRequest>().body === UNPARSABLE_BODY) throw new DomainError('invalid_json', 'the body is not valid JSON');
    return true;
  }
}
