import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ClientDisabledError } from './auth.service.js';
import { SignInThrottledError } from './sign-in-throttle.js';

/** 429 with `Retry-After`, which the global filter has no way to know. */
@Catch(SignInThrottledError)
export class RateLimitedFilter implements ExceptionFilter {
  catch(error: SignInThrottledError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(error.status).header('retry-after', String(error.retryAfterS)).header('content-type', 'application/json; charset=utf-8').send(error.toBody());
  }
}

/**
 * 403 `client_disabled`: the dashboard's own code (the public API answers a disabled client's keys
 * 401 `unauthorized`), so the sign-in page can say why instead of "wrong password".
 */
@Catch(ClientDisabledError)
export class ClientDisabledFilter implements ExceptionFilter {
  catch(error: ClientDisabledError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(403).header('content-type', 'application/json; charset=utf-8').send({ error: 'client_disabled', detail: error.detail });
  }
}
