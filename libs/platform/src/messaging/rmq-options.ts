import type { ServiceName } from '@smsq/contracts';
import { Transport, type RmqOptions } from '@nestjs/microservices';
import type { CommonConfig } from '../config/common-config.js';
import { queueName } from './queues.js';

type BrokerConfig = Pick<CommonConfig, 'amqpUrl' | 'namespace'>;

/** The same queue declaration on both sides, or RabbitMQ refuses the second with PRECONDITION_FAILED. */
function queueOptions() {
  return { durable: true };
}

/** A service consuming its own queue; messages are acknowledged only after their handler finished. */
export function rmqServerOptions(config: BrokerConfig, service: ServiceName): RmqOptions {
  return {
    transport: Transport.RMQ,
    options: {
      urls: [config.amqpUrl],
      queue: queueName(config.namespace, service),
      queueOptions: queueOptions(),
      noAck: false,
      prefetchCount: 32,
      persistent: true,
      maxConnectionAttempts: -1,
      socketOptions: { heartbeatIntervalInSeconds: 10, reconnectTimeInSeconds: 1 },
    },
  };
}

/** A client publishing to another service's queue. */
export function rmqClientOptions(config: BrokerConfig, service: ServiceName): RmqOptions {
  return {
    transport: Transport.RMQ,
    options: {
      urls: [config.amqpUrl],
      queue: queueName(config.namespace, service),
      queueOptions: queueOptions(),
      persistent: true,
      maxConnectionAttempts: -1,
      socketOptions: { heartbeatIntervalInSeconds: 10, reconnectTimeInSeconds: 1 },
    },
  };
}
