import { DomainError } from '@smsq/contracts';
import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { RmqContext } from '@nestjs/microservices';
import type { Channel, Message } from 'amqplib';
import { finalize, tap, type Observable } from 'rxjs';
import type { ServiceMetrics } from '../observability/metrics.js';
import type { OpenDeliveries } from './open-deliveries.js';

/**
 * Settles a broker message only once its handler has finished (and so committed), so a service
 * killed mid-handler gets the message again; handlers are idempotent for that reason. A handler
 * that answered, or failed with a domain error (the contract's codes, a normal answer), has its
 * message acknowledged. Anything else (a payload that fails validation, an unexpected error) is
 * rejected without requeueing: the queue dead-letters it, so it can never loop. The requester has
 * its error answer either way and owns the retry, through its timeout and idempotency.
 */
@Injectable()
export class AckAfterHandlingInterceptor implements NestInterceptor {
  private readonly logger = new Logger(AckAfterHandlingInterceptor.name);

  constructor(
    private readonly deliveries?: OpenDeliveries,
    private readonly metrics?: ServiceMetrics,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rmq = context.switchToRpc().getContext<RmqContext>();
    const channel = rmq.getChannelRef() as Channel;
    const message = rmq.getMessage() as Message;
    this.deliveries?.handling(message);
    let settled = false;
    const settle = (outcome: 'answered' | 'refused' | 'dead-lettered'): void => {
      if (settled) return;
      settled = true;
      this.metrics?.handledMessages.inc({ pattern: rmq.getPattern(), outcome });
      try {
        if (outcome === 'dead-lettered') channel.nack(message, false, false);
        else channel.ack(message);
      } catch (error) {
        // The channel closed under the handler: the broker delivers the message again.
        this.logger.warn(`message not settled: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.deliveries?.settled(message);
      }
    };
    return next.handle().pipe(
      tap({ error: (error: unknown) => settle(error instanceof DomainError ? 'refused' : 'dead-lettered') }),
      finalize(() => settle('answered')),
    );
  }
}
