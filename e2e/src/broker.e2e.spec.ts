import { Patterns, type DebitResult, type ServiceName as QueueOwner } from '@smsq/contracts';
import { deadLetterQueueName, queueName } from '@smsq/platform';
import { eventually, TEST_SERVER_URL } from '@smsq/testing';
import amqplib, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, type ServiceName } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

interface Consumer {
  process: ServiceName;
  queue: QueueOwner;
  /** A pattern the service handles, whose payload class refuses what these tests send. */
  pattern: string;
}

const CONSUMERS: Consumer[] = [
  { process: 'api-gateway', queue: 'gateway', pattern: Patterns.gateway.clientShow },
  { process: 'billing', queue: 'billing', pattern: Patterns.billing.debit },
  { process: 'dispatch', queue: 'dispatch', pattern: Patterns.dispatch.taskCreate },
  { process: 'inbox', queue: 'inbox', pattern: Patterns.inbox.messagesStore },
  { process: 'dashboard', queue: 'dashboard', pattern: Patterns.dashboard.adminCreate },
];

/** Messages no smsq publisher sends: what a bug, an old version or a person with broker access might. */
function malformed(pattern: string, replyTo: string): Array<{ body: string; properties: amqplib.Options.Publish }> {
  return [
    { body: 'not json {', properties: {} },
    { body: '', properties: {} },
    { body: 'null', properties: { replyTo, correlationId: 'null-body' } },
    { body: JSON.stringify({ pattern: 'nobody.listens.v1', id: 'unknown', data: {} }), properties: { replyTo, correlationId: 'unknown' } },
    { body: JSON.stringify({ pattern, id: 'invalid', data: { unexpected: true } }), properties: { replyTo, correlationId: 'invalid' } },
    { body: JSON.stringify({ pattern, id: 'text', data: 'text' }), properties: {} },
  ];
}

describe('poison messages on the broker', () => {
  let stack: Stack;
  let connection: ChannelModel;
  let channel: Channel;
  const ports = new Map<ServiceName, string>();

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A' });
    const dashboardUrl = await stack.startDashboard();
    ports.set('api-gateway', stack.baseUrl).set('dashboard', dashboardUrl);
    for (const [process, variable] of [['billing', 'BILLING_PORT'], ['dispatch', 'DISPATCH_PORT'], ['inbox', 'INBOX_PORT']] as const) {
      ports.set(process, `http://127.0.0.1:${stack.env[variable]}`);
    }
    connection = await amqplib.connect(stack.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672');
    channel = await connection.createChannel();
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  it('dead-letters malformed messages on every service queue; each service stays up, answers what it can, and serves real requests after', async () => {
    const namespace = stack.env['SMSQ_NAMESPACE']!;
    const pids = new Map(CONSUMERS.map((consumer) => [consumer.process, stack.pidOf(consumer.process)]));
    const replies: ConsumeMessage[] = [];
    const replyQueue = (await channel.assertQueue('', { exclusive: true, autoDelete: true })).queue;
    await channel.consume(replyQueue, (message) => message && replies.push(message), { noAck: true });

    for (const consumer of CONSUMERS) {
      for (const { body, properties } of malformed(consumer.pattern, replyQueue)) {
        channel.sendToQueue(queueName(namespace, consumer.queue), Buffer.from(body), { persistent: true, ...properties, correlationId: properties.correlationId && `${consumer.queue}:${properties.correlationId}` });
      }
    }

    for (const consumer of CONSUMERS) {
      const expected = malformed(consumer.pattern, replyQueue).map(({ body }) => body);
      await eventually(async () => expect((await channel.checkQueue(deadLetterQueueName(namespace, consumer.queue))).messageCount).toBe(expected.length), { timeoutMs: 15_000, intervalMs: 100 });
      const deadLettered: string[] = [];
      for (let message = await channel.get(deadLetterQueueName(namespace, consumer.queue), { noAck: true }); message; message = await channel.get(deadLetterQueueName(namespace, consumer.queue), { noAck: true })) {
        deadLettered.push(message.content.toString('utf8'));
      }
      expect(deadLettered.sort(), consumer.queue).toEqual(expected.sort());
      expect((await channel.checkQueue(queueName(namespace, consumer.queue))).messageCount, consumer.queue).toBe(0);
      // A requester that gave a reply address hears why: the contract's code for a bad payload, Nest's text for a pattern nobody handles.
      await eventually(() => {
        const invalid = replies.find((reply) => reply.properties.correlationId === `${consumer.queue}:invalid`);
        const unknown = replies.find((reply) => reply.properties.correlationId === `${consumer.queue}:unknown`);
        expect(JSON.parse(invalid!.content.toString('utf8')), consumer.queue).toMatchObject({ err: { error: 'invalid_request' } });
        expect(JSON.parse(unknown!.content.toString('utf8')), consumer.queue).toMatchObject({ err: expect.stringContaining('no matching message handler') });
      });
    }

    for (const consumer of CONSUMERS) {
      expect(stack.pidOf(consumer.process), consumer.process).toBe(pids.get(consumer.process));
      expect((await fetch(`${ports.get(consumer.process)}/readyz`)).status, consumer.process).toBe(200);
    }
    // Real work through every queue: gateway and billing (client create), dispatch and billing (create-task), inbox, dashboard.
    const client = await stack.newClient({ phone: false });
    const phone = await registerPhone(stack, client.apiKey, { name: 'Pixel', device_id: 'after-poison' });
    expect(phone.status).toBe(201);
    expect((await stack.createTask(client.apiKey, { recipient: '+381641234567', message: 'still working' })).status).toBe(201);
    expect((await workerApi(stack, phone.body.worker_token).inbound({ from: '+381641234567', message: 'reply', external_id: 'after-poison-1' })).status).toBe(201);
    await expect(stack.adminOk('admin', 'create', '--email', 'after-poison@example.com', '--password', 'a long enough password')).resolves.toBeTruthy();
  });

  it('a service killed in the middle of a handler gets the message again, and the requester still has its answer', async () => {
    const client = await stack.newClient();
    const before = await stack.credits(client.clientId);
    const database = new pg.Client({ connectionString: `${TEST_SERVER_URL}/${stack.env['DATABASE_URL']!.split('/').pop()}` });
    await database.connect();
    try {
      // Holding the account's row lock keeps billing's debit inside its handler, its message unacknowledged.
      await database.query('BEGIN');
      await database.query('SELECT 1 FROM billing.accounts WHERE client_id = $1 FOR UPDATE', [client.clientId]);
      const debit = stack.serviceClients().billing.send<DebitResult>(Patterns.billing.debit, { taskKey: randomUUID(), clientId: client.clientId, deadline: new Date(Date.now() + 60_000).toISOString() }, { timeoutMs: 30_000 });
      await eventually(async () => {
        const { rows } = await database.query("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        expect(rows[0].waiting).toBeGreaterThan(0);
      }, { intervalMs: 20 });

      await stack.kill('billing');
      await database.query('COMMIT');
      stack.launch('billing');

      await expect(debit).resolves.toMatchObject({ creditsRemaining: before - 1 });
      expect(await stack.credits(client.clientId)).toBe(before - 1);
    } finally {
      await database.end();
      if (stack.pidOf('billing') === undefined) stack.launch('billing');
      await stack.waitUntilReady();
    }
  });
});
