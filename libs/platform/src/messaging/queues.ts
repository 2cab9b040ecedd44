import type { ServiceName } from '@smsq/contracts';

/** Every service consumes one durable queue, named under the namespace so instances can share a broker. */
export function queueName(namespace: string, service: ServiceName): string {
  return `${namespace}.${service}`;
}

/** Where a service's queue puts what its consumer rejected: poison messages, kept for a person to read. */
export function deadLetterQueueName(namespace: string, service: ServiceName): string {
  return `${queueName(namespace, service)}.dead`;
}

/**
 * `classic` (the default) or `quorum`: replicated queues for a clustered RabbitMQ
 * (`SMSQ_QUEUE_TYPE`). Every process of one smsq must use the same type.
 */
export const QUEUE_TYPES = ['classic', 'quorum'] as const;
export type QueueType = (typeof QUEUE_TYPES)[number];

/** Where a service's queues live: the namespace, and their type (classic when not said). */
export interface BrokerQueues {
  namespace: string;
  queueType?: QueueType;
}

export interface QueueOptions {
  durable: true;
  arguments: Record<string, string | number>;
}

/** Quorum queues only; a classic queue is declared without a type, as every earlier smsq declared it. */
function typeArguments(broker: BrokerQueues): Record<string, string> {
  // At-least-once dead-lettering keeps a poison message until its dead-letter queue confirms it;
  // it needs reject-publish, which never applies here: a service queue has no length limit.
  return broker.queueType === 'quorum' ? { 'x-queue-type': 'quorum', 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' } : {};
}

/**
 * How a service queue is declared, by its consumer and by every publisher alike: RabbitMQ refuses
 * (406) a declaration whose arguments differ from the queue's. A rejected message goes through
 * the default exchange to the service's dead-letter queue.
 */
export function serviceQueueOptions(broker: BrokerQueues, service: ServiceName): QueueOptions {
  return { durable: true, arguments: { ...typeArguments(broker), 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': deadLetterQueueName(broker.namespace, service) } };
}

/**
 * Requests that expire unanswered while their service is down are dead-lettered too, so the queue
 * is bounded: past this many messages the oldest are dropped.
 */
export function deadLetterQueueOptions(broker: BrokerQueues): QueueOptions {
  return { durable: true, arguments: { ...(broker.queueType === 'quorum' ? { 'x-queue-type': 'quorum' } : {}), 'x-max-length': 100_000 } };
}
