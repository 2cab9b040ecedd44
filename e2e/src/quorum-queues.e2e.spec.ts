import { deadLetterQueueName, queueName, serviceQueueOptions } from '@smsq/platform';
import { eventually } from '@smsq/testing';
import amqplib, { type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.js';
import { clientWithPairedPhone } from './support/worker-api.js';

const SERVICES = ['gateway', 'billing', 'dispatch', 'inbox', 'dashboard'] as const;

/** SMSQ_QUEUE_TYPE=quorum, for a clustered RabbitMQ: the same system on replicated queues. */
describe('quorum queues', () => {
  let stack: Stack;
  let connection: ChannelModel;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_QUEUE_TYPE: 'quorum' } });
    await stack.startDashboard();
    connection = await amqplib.connect(stack.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672');
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  /** Whether the broker takes this declaration of the queue: it refuses one that differs from the queue as it is. */
  async function declaredAs(queue: string, options: object): Promise<boolean> {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      await channel.assertQueue(queue, options);
      return true;
    } catch {
      return false;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  it('declares every service queue and dead-letter queue as a quorum queue', async () => {
    const namespace = stack.env['SMSQ_NAMESPACE']!;
    for (const service of SERVICES) {
      expect(await declaredAs(queueName(namespace, service), serviceQueueOptions({ namespace, queueType: 'quorum' }, service)), service).toBe(true);
      expect(await declaredAs(queueName(namespace, service), serviceQueueOptions({ namespace }, service)), `${service} as classic`).toBe(false);
      expect(await declaredAs(deadLetterQueueName(namespace, service), { durable: true, arguments: { 'x-queue-type': 'quorum', 'x-max-length': 100_000 } }), `${service} dead letters`).toBe(true);
    }
  });

  it('queues, delivers, refunds a failure once and stores a reply, as on classic queues', async () => {
    const client = await clientWithPairedPhone(stack);
    const before = await stack.credits(client.clientId);
    const sent = await stack.createTask(client.apiKey, { recipient: '+381641234567', message: 'over quorum queues' });
    const failed = await stack.createTask(client.apiKey, { recipient: '+381641234568', message: 'this one fails' });
    expect([sent.status, failed.status]).toEqual([201, 201]);
    expect(await stack.credits(client.clientId)).toBe(before - 2);

    for (const outcome of ['sent', 'failed'] as const) {
      const claim = await client.worker.poll();
      expect((await client.worker.report(claim.body.id, outcome, outcome === 'failed' ? 'no signal' : undefined)).status).toBe(200);
    }
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before - 1), { timeoutMs: 15_000 });
    expect((await client.worker.inbound({ from: '+381641234567', message: 'got it', external_id: 'quorum-1' })).body).toMatchObject({ stored: 1 });
    // The admin command line publishes to the same quorum queues.
    expect((await stack.cli('client', 'show', '--client', String(client.clientId))).output.credits_remaining).toBe(before - 1);
  });
});
