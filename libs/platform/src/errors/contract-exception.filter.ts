import { DomainError, ERROR_STATUS, InvalidRequestError, type ErrorBody, type ErrorCode } from '@smsq/contracts';
import { BadRequestException, Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { throwError, type Observable } from 'rxjs';

/** HTTP statuses that frameworks raise on their own, mapped to the contract's codes. */
const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'invalid_request',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * The one exception filter of every service, for both transports: a domain error leaves with its
 * contract code; anything unexpected is logged here and leaves as `internal_error`, without internals.
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
      const code = CODE_BY_STATUS[exception.getStatus()];
      if (code) return { error: code, detail: exception.message };
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return { error: 'internal_error', detail: 'unexpected error' };
  }
}

function validationDetail(exception: BadRequestException): string {
  const response = exception.getResponse() as { message?: unknown };
  return Array.isArray(response.message) ? response.message.join('; ') : exception.message;
}
