import type { ServiceName } from '@smsq/contracts';
import type { Type } from '@nestjs/common';
import { Transport, type ClientProxy, type CustomClientOptions, type RmqOptions } from '@nestjs/microservices';
import type { CommonConfig } from '../config/common-config.js';
import { CONNECT_TIMEOUT_MS, HEARTBEAT_S } from './broker-probe.js';
import { queueName, serviceQueueOptions, type QueueType } from './queues.js';
import { ServiceQueueClient } from './service-queue-client.js';


type BrokerConfig = Pick<CommonConfig, 'amqpUrl' | 'namespace'> & { queueType?: QueueType };

/**
 * Both sides declare the queue the same way (RabbitMQ refuses a second, different declaration),
 * publish persistently, and reconnect for ever.
 */
function queueConnection(config: BrokerConfig, service: ServiceName) {
  return {
    urls: [config.amqpUrl],
    queue: queueName(config.namespace, service),
    queueOptions: serviceQueueOptions(config, service),
    persistent: true,
    maxConnectionAttempts: -1,
    socketOptions: {
      heartbeatIntervalInSeconds: HEARTBEAT_S,
      reconnectTimeInSeconds: 1,
      // Without noDelay every request waits out Nagle's algorithm against delayed ACKs (~40 ms per hop).
      // `timeout` bounds the connection's opening handshake, which a silent broker would never finish.
      connectionOptions: { noDelay: true, timeout: CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveDelay: 10_000 },
    },
  };
}

/** A service consuming its own queue; messages are acknowledged only after their handler finished. */
export function rmqServerOptions(config: BrokerConfig, service: ServiceName): RmqOptions {
  return { transport: Transport.RMQ, options: { ...queueConnection(config, service), noAck: false, prefetchCount: 32 } };
}

/** A client publishing to another service's queue, with publisher confirms (`ServiceQueueClient`). */
export function rmqClientOptions(config: BrokerConfig, service: ServiceName): CustomClientOptions {
  // Nest types the custom class as a ClientProxy with its default status type; ClientRMQ narrows it.
  return { customClass: ServiceQueueClient as unknown as Type<ClientProxy>, options: queueConnection(config, service) };
}
