import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SignInThrottledError } from './sign-in-throttle.js';

/** 429 with `Retry-After`, which the global filter has no way to know. */
@Catch(SignInThrottledError)
export class RateLimitedFilter implements ExceptionFilter {
  catch(error: SignInThrottledError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(error.status).header('retry-after', String(error.retryAfterS)).header('content-type', 'application/json; charset=utf-8').send(error.toBody());
  }
}
