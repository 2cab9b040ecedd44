import type { ServiceName } from '@smsq/contracts';

/** Every service consumes one durable queue, named under the namespace so instances can share a broker. */
export function queueName(namespace: string, service: ServiceName): string {
  return `${namespace}.${service}`;
}

/** Where a service's queue puts what its consumer rejected: poison messages, kept for a person to read. */
export function deadLetterQueueName(namespace: string, service: ServiceName): string {
  return `${queueName(namespace, service)}.dead`;
}

export interface ServiceQueueOptions {
  durable: true;
  arguments: { 'x-dead-letter-exchange': ''; 'x-dead-letter-routing-key': string };
}

/**
 * How a service queue is declared, by its consumer and by every publisher alike: RabbitMQ refuses
 * (406) a declaration whose arguments differ from the queue's. A rejected message goes through
 * the default exchange to the service's dead-letter queue.
 */
export function serviceQueueOptions(namespace: string, service: ServiceName): ServiceQueueOptions {
  return { durable: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': deadLetterQueueName(namespace, service) } };
}
