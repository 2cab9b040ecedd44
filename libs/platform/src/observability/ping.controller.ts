import { pingPattern, type Ok, type ServiceName } from '@smsq/contracts';
import { Controller, type Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';

/** Answers the service's ping over the broker, so callers can tell it is consuming its queue. */
export function pingControllerFor(service: ServiceName): Type<unknown> {
  @Controller()
  class PingController {
    @MessagePattern(pingPattern(service))
    ping(): Ok {
      return { ok: true };
    }
  }
  return PingController;
}
