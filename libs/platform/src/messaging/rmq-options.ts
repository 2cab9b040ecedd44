import type { ServiceName } from '@smsq/contracts';
import { Transport, type RmqOptions } from '@nestjs/microservices';
import type { CommonConfig } from '../config/common-config.js';
import { queueName } from './queues.js';

type BrokerConfig = Pick<CommonConfig, 'amqpUrl' | 'namespace'>;

/**
 * Both sides declare the queue the same way (RabbitMQ refuses a second, different declaration),
 * publish persistently, and reconnect for ever.
 */
function queueConnection(config: BrokerConfig, service: ServiceName) {
  return {
    urls: [config.amqpUrl],
    queue: queueName(config.namespace, service),
    queueOptions: { durable: true },
    persistent: true,
    maxConnectionAttempts: -1,
    socketOptions: { heartbeatIntervalInSeconds: 10, reconnectTimeInSeconds: 1 },
  };
}

/** A service consuming its own queue; messages are acknowledged only after their handler finished. */
export function rmqServerOptions(config: BrokerConfig, service: ServiceName): RmqOptions {
  return { transport: Transport.RMQ, options: { ...queueConnection(config, service), noAck: false, prefetchCount: 32 } };
}

/** A client publishing to another service's queue. */
export function rmqClientOptions(config: BrokerConfig, service: ServiceName): RmqOptions {
  return { transport: Transport.RMQ, options: queueConnection(config, service) };
}
