import type { ServiceName } from '@smsq/contracts';
import type { LoggerService } from '@nestjs/common';
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import { deadLetterQueueName, queueName, serviceQueueOptions } from './queues.js';

const PRECONDITION_FAILED = 406;

/**
 * Requests that expire unanswered while their service is down are dead-lettered too, so the queue
 * is bounded: past this many messages the oldest are dropped.
 */
const DEAD_LETTER_QUEUE_OPTIONS = { durable: true, arguments: { 'x-max-length': 100_000 } };

/** The queue exists with other arguments and cannot be replaced without losing what it holds. */
export class QueueMigrationRefused extends Error {
  constructor(queue: string, messages: number) {
    super(
      `queue ${queue} was declared by an earlier smsq without a dead-letter queue and still holds ${messages} message(s); ` +
        `stop every smsq process of the earlier version and start this one again (the messages are requests that expire with their callers' timeouts), ` +
        `or, if they are not wanted, delete the queue (rabbitmqctl delete_queue ${queue}) and start again`,
    );
    this.name = QueueMigrationRefused.name;
  }
}

/**
 * Declares a service's queue and its dead-letter queue before the service consumes. A queue that
 * an earlier version declared without dead-lettering is replaced when it is empty; one that still
 * holds messages stops the start with `QueueMigrationRefused`, naming what to do.
 */
export async function declareServiceQueue(broker: { amqpUrl: string; namespace: string }, service: ServiceName, logger: LoggerService): Promise<void> {
  const queue = queueName(broker.namespace, service);
  const options = serviceQueueOptions(broker.namespace, service);
  const connection = await amqplib.connect(broker.amqpUrl);
  connection.on('error', () => undefined);
  try {
    await withChannel(connection, (channel) => channel.assertQueue(deadLetterQueueName(broker.namespace, service), DEAD_LETTER_QUEUE_OPTIONS));
    if (await declaredAsAsked(connection, queue, options)) return;

    const { messageCount } = await withChannel(connection, (channel) => channel.checkQueue(queue));
    if (messageCount > 0) throw new QueueMigrationRefused(queue, messageCount);
    // ifEmpty: a message that arrived since the check makes the broker refuse instead of dropping it.
    await withChannel(connection, async (channel) => {
      await channel.deleteQueue(queue, { ifEmpty: true });
      await channel.assertQueue(queue, options);
    }).catch((error: unknown) => {
      if (isPreconditionFailed(error)) throw new QueueMigrationRefused(queue, 1);
      throw error;
    });
    logger.warn?.(`queue ${queue} was declared by an earlier version without dead-lettering; it was empty and is now redeclared`);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Whether the queue now exists with these options; false when it exists with others (406). */
async function declaredAsAsked(connection: ChannelModel, queue: string, options: object): Promise<boolean> {
  try {
    await withChannel(connection, (channel) => channel.assertQueue(queue, options));
    return true;
  } catch (error) {
    if (isPreconditionFailed(error)) return false;
    throw error;
  }
}

/** A refused operation closes its channel, so every step gets a channel of its own. */
async function withChannel<T>(connection: ChannelModel, work: (channel: Channel) => Promise<T>): Promise<T> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    return await work(channel);
  } finally {
    await channel.close().catch(() => undefined);
  }
}

function isPreconditionFailed(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === PRECONDITION_FAILED;
}
