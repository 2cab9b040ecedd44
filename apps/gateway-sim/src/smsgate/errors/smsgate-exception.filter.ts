import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BasicAuthRequired, SmsGateError } from './smsgate-errors.js';

/**
 * Answers errors on the SMSGate routes in the app's shape, `{"message": "..."}`, instead of smsq's
 * contract shape; an unexpected error is a 500 with its message, as the app's StatusPages does.
 */
@Catch()
export class SmsGateExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(SmsGateExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof BasicAuthRequired) void reply.header('www-authenticate', BasicAuthRequired.CHALLENGE);
    const { status, message } = this.answer(exception);
    void reply.status(status);
    if (exception instanceof SmsGateError && !exception.hasBody) void reply.send();
    else void reply.header('content-type', 'application/json; charset=UTF-8').send({ message });
  }

  private answer(exception: unknown): { status: number; message: string } {
    if (exception instanceof SmsGateError) return { status: exception.status, message: exception.message };
    if (exception instanceof HttpException) return { status: exception.getStatus(), message: exception.message };
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return { status: 500, message: exception instanceof Error ? exception.message : String(exception) };
  }
}
