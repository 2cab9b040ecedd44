import { DomainError, ERROR_STATUS, InvalidRequestError, type ErrorBody } from '@smsq/contracts';
import { BadRequestException, Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { throwError, type Observable } from 'rxjs';
import { isInfrastructureOutage } from './infrastructure-outage.js';

/**
 * HTTP statuses that frameworks raise on their own, mapped to the contract's codes, each with a
 * fixed detail: the framework's own message can quote the request URL, query string (and so an
 * `?api_key=`) included.
 */
const FRAMEWORK_ERRORS: Partial<Record<number, ErrorBody>> = {
  400: { error: 'invalid_request', detail: 'the request is not valid' },
  401: { error: 'unauthorized', detail: 'a valid credential is required' },
  404: { error: 'not_found', detail: 'there is nothing at this path' },
  405: { error: 'method_not_allowed', detail: 'this method is not allowed here' },
  409: { error: 'conflict', detail: 'the request conflicts with the current state' },
  413: { error: 'payload_too_large', detail: 'the body is larger than this endpoint takes (64 KiB; create-tasks 4 MiB)' },
  415: { error: 'invalid_request', detail: 'the body is not valid' },
  429: { error: 'rate_limited', detail: 'too many requests; retry later' },
  503: { error: 'unavailable', detail: 'a service this request needs is not reachable; retry later' },
};

/**
 * The one exception filter of every service, for both transports: a domain error leaves with its
 * contract code; a database or broker that is down leaves as `unavailable` (retry later); anything
 * unexpected is logged here and leaves as `internal_error`, without internals.
 */
@Catch()
export class ContractExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ContractExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    const body = this.toBody(exception);
    if (host.getType() === 'rpc') return throwError(() => body);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.status(ERROR_STATUS[body.error]).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  toBody(exception: unknown): ErrorBody {
    if (exception instanceof DomainError) return exception.toBody();
    if (exception instanceof BadRequestException) return new InvalidRequestError(validationDetail(exception)).toBody();
    if (exception instanceof HttpException) {
      const known = FRAMEWORK_ERRORS[exception.getStatus()];
      if (known) return known;
    }
    if (isInfrastructureOutage(exception)) {
      // A database or broker that is down or restarting: the caller retries, nothing here is a bug.
      this.logger.warn(`infrastructure unavailable: ${exception instanceof Error ? exception.message.trim().split('\n').pop() : String(exception)}`);
      return FRAMEWORK_ERRORS[503]!;
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return { error: 'internal_error', detail: 'unexpected error' };
  }
}

function validationDetail(exception: BadRequestException): string {
  const response = exception.getResponse() as { message?: unknown };
  return Array.isArray(response.message) ? response.message.join('; ') : exception.message;
}
