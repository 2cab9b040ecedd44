import type { ServiceName } from '@smsq/contracts';
import type { LoggerService } from '@nestjs/common';
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import { START_CONNECT_TIMEOUT_MS, withHeartbeat } from './broker-probe.js';
import { deadLetterQueueName, deadLetterQueueOptions, queueName, serviceQueueOptions, type BrokerQueues, type QueueOptions } from './queues.js';

const PRECONDITION_FAILED = 406;

/** The queue exists with other arguments and cannot be replaced without losing what it holds. */
export class QueueMigrationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = QueueMigrationRefused.name;
  }

  static holding(queue: string, messages: number, deadLetters: boolean): QueueMigrationRefused {
    return new QueueMigrationRefused(
      `queue ${queue} was declared with other arguments (by an earlier smsq without a dead-letter queue, or as another type than SMSQ_QUEUE_TYPE asks) and still holds ${messages} message(s); ` +
        (deadLetters
          ? `they are dead letters kept for a person to read: read or move them (for example with a shovel), then delete the queue (rabbitmqctl delete_queue ${queue}) and start again`
          : `stop every smsq process and start them all again with the same SMSQ_QUEUE_TYPE (the messages are requests that expire with their callers' timeouts), ` +
            `or, if they are not wanted, delete the queue (rabbitmqctl delete_queue ${queue}) and start again`),
    );
  }
}

/**
 * Declares a service's queue and its dead-letter queue before the service consumes. A queue
 * declared with other arguments (by a version without dead-lettering, or of the other queue type)
 * is replaced when it is empty; one that still holds messages stops the start with
 * `QueueMigrationRefused`, naming what to do.
 */
export async function declareServiceQueue(broker: BrokerQueues & { amqpUrl: string }, service: ServiceName, logger: LoggerService): Promise<void> {
  // Before the service starts, a broker busy with several services starting at once may be slow to answer.
  const connection = await amqplib.connect(withHeartbeat(broker.amqpUrl), { timeout: START_CONNECT_TIMEOUT_MS });
  connection.on('error', () => undefined);
  try {
    await declareReplacingEmpty(connection, deadLetterQueueName(broker.namespace, service), deadLetterQueueOptions(broker), logger, true);
    await declareReplacingEmpty(connection, queueName(broker.namespace, service), serviceQueueOptions(broker, service), logger, false);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

async function declareReplacingEmpty(connection: ChannelModel, queue: string, options: QueueOptions, logger: LoggerService, deadLetters: boolean): Promise<void> {
  if (await declaredAsAsked(connection, queue, options)) return;
  const { messageCount } = await withChannel(connection, (channel) => channel.checkQueue(queue));
  if (messageCount > 0) throw QueueMigrationRefused.holding(queue, messageCount, deadLetters);
  // ifEmpty: a message that arrived since the check makes the broker refuse instead of dropping it.
  await withChannel(connection, async (channel) => {
    await channel.deleteQueue(queue, { ifEmpty: true });
    await channel.assertQueue(queue, options);
  }).catch((error: unknown) => {
    if (isPreconditionFailed(error)) throw QueueMigrationRefused.holding(queue, 1, deadLetters);
    // A quorum queue cannot be deleted only-if-empty (the broker closes the connection): a person does it.
    throw new QueueMigrationRefused(
      `queue ${queue} must be replaced to become ${options.arguments['x-queue-type'] ?? 'classic'}, and a quorum queue cannot be deleted only if empty: ` +
        `stop every smsq process, check that it is empty, delete it (rabbitmqctl delete_queue ${queue}) and start again (${error instanceof Error ? error.message : String(error)})`,
    );
  });
  logger.warn?.(`queue ${queue} was declared with other arguments (an earlier version, or the other queue type); it was empty and is now redeclared as ${options.arguments['x-queue-type'] ?? 'classic'}`);
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
