import type { EventEmitter } from 'node:events';
import { Controller, Module } from '@nestjs/common';
import { ClientProxyFactory, MessagePattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError, UnavailableError } from '@smsq/contracts';
import { eventually, timed } from '@smsq/testing';
import { IsInt } from 'class-validator';
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../bootstrap/start-service.js';
import type { CommonConfig } from '../config/common-config.js';
import { ObservabilityModule } from '../observability/observability.module.js';
import { deadLetterQueueName, queueName, QUEUE_TYPES, type QueueType } from './queues.js';
import { rmqClientOptions } from './rmq-options.js';
import { ServiceClient } from './service-client.js';
import { declareServiceQueue, QueueMigrationRefused } from './service-queue.js';
import { ServiceQueueClient } from './service-queue-client.js';

const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';

class Amount {
  @IsInt()
  n!: number;
}

/** How often each handler ran, so a test can tell a message handled once from one that loops. */
const runs = { crash: 0 };

@Controller()
class StandInController {
  @MessagePattern('test.echo.v1')
  echo(@Payload() payload: Amount): Amount {
    return { n: payload.n };
  }

  @MessagePattern('test.refuse.v1')
  refuse(): never {
    throw new DomainError('insufficient_credits', 'no credits left');
  }

  @MessagePattern('test.crash.v1')
  crash(): never {
    runs.crash++;
    throw new Error('the database is gone');
  }
}

@Module({ imports: [ObservabilityModule.forService('billing')], controllers: [StandInController] })
class StandInModule {}

function configFor(namespace: string, queueType: QueueType = 'classic'): CommonConfig {
  return { profile: 'A', namespace, databaseUrl: 'postgresql://unused', amqpUrl: AMQP_URL, queueType, redisUrl: 'redis://unused', logFormat: 'text', logLevel: 'info', rpcTimeoutMs: 3_000, stuckLimitS: 60 };
}

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe.each(QUEUE_TYPES)('dead-lettering of %s service queues', (queueType) => {
  const config = configFor(`dltest_${randomBytes(4).toString('hex')}`, queueType);
  const queue = queueName(config.namespace, 'billing');
  const deadLetters = deadLetterQueueName(config.namespace, 'billing');
  let app: NestFastifyApplication;
  let client: ServiceClient;
  let connection: ChannelModel;
  let channel: Channel;

  beforeAll(async () => {
    app = await startService({ name: 'billing', module: StandInModule, config, port: 0, consumes: 'billing' });
    client = new ServiceClient('billing', ClientProxyFactory.create(rmqClientOptions(config, 'billing')), 3_000);
    connection = await amqplib.connect(AMQP_URL);
    channel = await connection.createChannel();
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await channel?.deleteQueue(queue);
    await channel?.deleteQueue(deadLetters);
    await connection?.close();
  });

  async function deadLettered(): Promise<string[]> {
    const bodies: string[] = [];
    for (;;) {
      const message = await channel.get(deadLetters, { noAck: true });
      if (message === false) return bodies;
      bodies.push(message.content.toString('utf8'));
    }
  }

  /** Waits until exactly `count` messages are dead-lettered, then takes them off the dead-letter queue. */
  async function expectDeadLettered(count: number): Promise<string[]> {
    await eventually(async () => expect((await channel.checkQueue(deadLetters)).messageCount).toBe(count), { timeoutMs: 5_000, intervalMs: 50 });
    return deadLettered();
  }

  it('answers a good request and acknowledges it', async () => {
    await expect(client.send('test.echo.v1', { n: 7 })).resolves.toEqual({ n: 7 });
    await expect(client.send('test.refuse.v1', {})).rejects.toMatchObject({ code: 'insufficient_credits' });

    expect((await channel.checkQueue(queue)).messageCount).toBe(0);
    expect((await channel.checkQueue(deadLetters)).messageCount).toBe(0);
  });

  it('answers a payload that fails validation with invalid_request and dead-letters it', async () => {
    await expect(client.send('test.echo.v1', { n: 'seven' })).rejects.toMatchObject({ code: 'invalid_request' });

    const [body] = await expectDeadLettered(1);
    expect(JSON.parse(body!)).toMatchObject({ pattern: 'test.echo.v1', data: { n: 'seven' } });
  });

  it('answers an unexpected handler error with internal_error and dead-letters the message after one run', async () => {
    const before = runs.crash;

    await expect(client.send('test.crash.v1', {})).rejects.toMatchObject({ code: 'internal_error' });

    await expectDeadLettered(1);
    expect(runs.crash - before).toBe(1);
  });

  it('dead-letters malformed messages published straight to the queue and keeps serving', async () => {
    const replies = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    const malformed: Array<[string, Record<string, unknown>]> = [
      ['not json {', {}],
      ['', {}],
      ['null', {}],
      ['42', {}],
      ['[]', {}],
      ['"a string"', { replyTo: replies.queue, correlationId: 's' }],
      [JSON.stringify({ pattern: 'test.nothing.v1', id: '1', data: {} }), { replyTo: replies.queue, correlationId: '1' }],
      [JSON.stringify({ pattern: 'test.nothing.v1', id: '2', data: {} }), {}],
      [JSON.stringify({ pattern: 'test.nothing.v1', data: {} }), {}],
      [JSON.stringify({ pattern: 'test.echo.v1', id: '3', data: { n: 'x' } }), {}],
      [JSON.stringify({ pattern: 'test.echo.v1', data: { n: 'x' } }), {}],
      [JSON.stringify({ pattern: 'test.echo.v1', id: '4', data: null }), { replyTo: replies.queue, correlationId: '4' }],
      [JSON.stringify({ pattern: { nested: [1, { deeper: true }] }, id: '5', data: {} }), {}],
      [`{"pattern":${'['.repeat(5_000)}${']'.repeat(5_000)},"id":"6"}`, {}],
      [JSON.stringify({ pattern: 'test.crash.v1', id: '7', data: {} }), {}],
    ];

    for (const [body, properties] of malformed) channel.sendToQueue(queue, Buffer.from(body), { persistent: true, ...properties });

    const bodies = await expectDeadLettered(malformed.length);
    expect(bodies.sort()).toEqual(malformed.map(([body]) => body).sort());
    expect((await channel.checkQueue(queue)).messageCount).toBe(0);
    await expect(client.send('test.echo.v1', { n: 8 })).resolves.toEqual({ n: 8 });
  });
});

describe(declareServiceQueue.name, () => {
  let connection: ChannelModel;
  let channel: Channel;
  const created: string[] = [];

  beforeAll(async () => {
    connection = await amqplib.connect(AMQP_URL);
    channel = await connection.createChannel();
  });

  afterAll(async () => {
    for (const name of created) await channel.deleteQueue(name);
    await connection.close();
  });

  /** A queue as the earlier version declared it: durable, no arguments. */
  async function earlierVersionQueue(): Promise<CommonConfig> {
    const config = configFor(`mgtest_${randomBytes(4).toString('hex')}`);
    created.push(queueName(config.namespace, 'billing'), deadLetterQueueName(config.namespace, 'billing'));
    await channel.assertQueue(queueName(config.namespace, 'billing'), { durable: true });
    return config;
  }

  it('replaces an empty queue declared without dead-lettering, so publishers and the service agree again', async () => {
    const config = await earlierVersionQueue();

    await declareServiceQueue(config, 'billing', silent);

    // Only a queue now declared with the dead-letter arguments accepts a declaration with them (a refusal closes the channel, so one of its own).
    const probe = await connection.createChannel();
    probe.on('error', () => undefined);
    await expect(probe.assertQueue(queueName(config.namespace, 'billing'), rmqClientOptionsOf(config).queueOptions)).resolves.toBeTruthy();
    await probe.close();
  });

  it('refuses to replace a queue that still holds messages, naming the queue and what to do', async () => {
    const config = await earlierVersionQueue();
    channel.sendToQueue(queueName(config.namespace, 'billing'), Buffer.from('{}'), { persistent: true });
    await eventually(async () => expect((await channel.checkQueue(queueName(config.namespace, 'billing'))).messageCount).toBe(1));

    const refused = declareServiceQueue(config, 'billing', silent);

    await expect(refused).rejects.toBeInstanceOf(QueueMigrationRefused);
    await expect(refused).rejects.toThrow(`queue ${queueName(config.namespace, 'billing')} was declared with other arguments`);
    expect((await channel.checkQueue(queueName(config.namespace, 'billing'))).messageCount).toBe(1);
  });

  /** A broker whose queues a classic smsq declared: the service queue and its dead-letter queue. */
  async function classicQueues(): Promise<CommonConfig> {
    const classic = configFor(`qqtest_${randomBytes(4).toString('hex')}`);
    created.push(queueName(classic.namespace, 'billing'), deadLetterQueueName(classic.namespace, 'billing'));
    await declareServiceQueue(classic, 'billing', silent);
    return classic;
  }

  /** Whether the queue takes a declaration with these options (a refusal closes the channel, so one of its own). */
  async function acceptsDeclaration(queue: string, options: object): Promise<boolean> {
    const probe = await connection.createChannel();
    probe.on('error', () => undefined);
    try {
      await probe.assertQueue(queue, options);
      return true;
    } catch {
      return false;
    } finally {
      await probe.close().catch(() => undefined);
    }
  }

  it('moves empty classic queues to quorum queues when SMSQ_QUEUE_TYPE becomes quorum; back to classic, a person deletes them', async () => {
    const classic = await classicQueues();
    const quorum = { ...classic, queueType: 'quorum' as const };
    const queue = queueName(classic.namespace, 'billing');

    await declareServiceQueue(quorum, 'billing', silent);

    expect(await acceptsDeclaration(queue, rmqClientOptionsOf(quorum).queueOptions)).toBe(true);
    expect(await acceptsDeclaration(queue, rmqClientOptionsOf(classic).queueOptions)).toBe(false);
    expect(await acceptsDeclaration(deadLetterQueueName(classic.namespace, 'billing'), { durable: true, arguments: { 'x-queue-type': 'quorum', 'x-max-length': 100_000 } })).toBe(true);

    const back = declareServiceQueue(classic, 'billing', silent);
    await expect(back).rejects.toBeInstanceOf(QueueMigrationRefused);
    await expect(back).rejects.toThrow(`stop every smsq process, check that it is empty, delete it (rabbitmqctl delete_queue ${deadLetterQueueName(classic.namespace, 'billing')})`);
    expect(await acceptsDeclaration(queue, rmqClientOptionsOf(quorum).queueOptions)).toBe(true);
  });

  it('refuses to change the type of a queue that holds requests, or of a dead-letter queue that holds dead letters, naming what to do', async () => {
    const classic = await classicQueues();
    const quorum = { ...classic, queueType: 'quorum' as const };
    const deadLetters = deadLetterQueueName(classic.namespace, 'billing');
    channel.sendToQueue(deadLetters, Buffer.from('poison'), { persistent: true });
    await eventually(async () => expect((await channel.checkQueue(deadLetters)).messageCount).toBe(1));

    const refused = declareServiceQueue(quorum, 'billing', silent);

    await expect(refused).rejects.toBeInstanceOf(QueueMigrationRefused);
    await expect(refused).rejects.toThrow(`queue ${deadLetters} was declared with other arguments`);
    await expect(refused).rejects.toThrow('they are dead letters kept for a person to read');
    expect((await channel.checkQueue(deadLetters)).messageCount).toBe(1);
  });

  it('fails an event sent while the queue cannot be used, and survives a publish failing on a closing channel (an unheard error event would end the process)', async () => {
    const config = await earlierVersionQueue();
    const proxy = ClientProxyFactory.create(rmqClientOptions(config, 'billing'));
    const publisher = new ServiceClient('billing', proxy, 1_000);
    try {
      const emits = await Promise.allSettled(Array.from({ length: 5 }, (_, n) => publisher.emit('test.echo.v1', { n })));
      expect(emits.every((emit) => emit.status === 'rejected')).toBe(true);
      expect((await channel.checkQueue(queueName(config.namespace, 'billing'))).messageCount).toBe(0);
      // What the channel wrapper does when a queued message meets a channel that closed under it.
      const wrapper = (proxy as unknown as { channel: EventEmitter }).channel;
      expect(() => wrapper.emit('error', new Error('Channel closed'))).not.toThrow();
    } finally {
      await publisher.close();
    }
  });

  it('keeps a publisher from sending into the earlier queue until the service has migrated it', async () => {
    const config = await earlierVersionQueue();
    const publisher = new ServiceClient('billing', ClientProxyFactory.create(rmqClientOptions(config, 'billing')), 1_500);
    try {
      await expect(publisher.send('test.echo.v1', { n: 1 })).rejects.toBeInstanceOf(UnavailableError);
      expect((await channel.checkQueue(queueName(config.namespace, 'billing'))).messageCount).toBe(0);

      await declareServiceQueue(config, 'billing', silent);

      await eventually(async () => {
        await publisher.emit('test.echo.v1', { n: 2 });
        expect((await channel.checkQueue(queueName(config.namespace, 'billing'))).messageCount).toBeGreaterThan(0);
      });
    } finally {
      await publisher.close();
    }
  });
});

describe(ServiceQueueClient.name, () => {
  it('publishes with confirms: a message the broker refuses fails the send instead of vanishing', async () => {
    const queue = `confirmtest_${randomBytes(4).toString('hex')}`;
    // A queue that takes nothing: with reject-publish the broker nacks every message, which only a confirm channel hears.
    const options = { urls: [AMQP_URL], queue, queueOptions: { durable: false, autoDelete: false, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } } };
    const publisher = new ServiceClient('full', ClientProxyFactory.create({ customClass: rmqClientOptionsOf(configFor('unused')).customClass, options }), 5_000);
    const connection = await amqplib.connect(AMQP_URL);
    try {
      const emitted = await timed(() => publisher.emit('test.echo.v1', { n: 1 }));
      const sent = await timed(() => publisher.send('test.echo.v1', { n: 2 }));

      expect(emitted.error).toBeInstanceOf(DomainError);
      expect(sent.error).toBeInstanceOf(UnavailableError);
      // The refusal arrives with the broker's nack, long before the 5 s timeout: the send at once, the emit after connecting first.
      expect(sent.ms).toBeLessThan(2_000);
      expect(emitted.ms).toBeLessThan(4_000);
    } finally {
      await publisher.close();
      const channel = await connection.createChannel();
      await channel.deleteQueue(queue);
      await connection.close();
    }
  });
});

function rmqClientOptionsOf(config: CommonConfig) {
  const { customClass, options } = rmqClientOptions(config, 'billing');
  return { customClass, queueOptions: (options as { queueOptions: object }).queueOptions };
}
