import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { RmqContext } from '@nestjs/microservices';
import { finalize, type Observable } from 'rxjs';

/**
 * Acknowledges a broker message only once its handler has finished (and so committed), so a
 * service killed mid-handler gets the message again. Handlers are idempotent for that reason.
 */
@Injectable()
export class AckAfterHandlingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rmq = context.switchToRpc().getContext<RmqContext>();
    return next.handle().pipe(
      finalize(() => {
        const channel = rmq.getChannelRef() as { ack(message: unknown): void };
        channel.ack(rmq.getMessage());
      }),
    );
  }
}
