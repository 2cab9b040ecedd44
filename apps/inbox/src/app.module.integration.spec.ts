import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ClientProxyFactory } from '@nestjs/microservices';
import { Patterns, pingPattern, type InboxPage, type MessagesStored } from '@smsq/contracts';
import { deadLetterQueueName, queueName, rmqClientOptions, ServiceClient, startService } from '@smsq/platform';
import { createTestDatabase, eventually, type TestDatabase } from '@smsq/testing';
import { connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from './app.module.js';
import type { InboxConfig } from './config/inbox-config.js';
import { INBOX_MIGRATIONS_DIR, testInboxConfig } from './testing/inbox-harness.js';

/** The inbox as the gateway and the dashboard reach it: over its queue, payloads checked strictly. */
describe(AppModule.name, () => {
  let testDatabase: TestDatabase;
  let config: InboxConfig;
  let app: NestFastifyApplication;
  let inbox: ServiceClient;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('inbox_app', [{ schema: 'inbox', migrationsDir: INBOX_MIGRATIONS_DIR }]);
    config = testInboxConfig({ databaseUrl: testDatabase.url, namespace: `inboxtest_${randomBytes(4).toString('hex')}` });
    app = await startService({ name: 'inbox', module: AppModule.register(config), config, port: 0, consumes: 'inbox' });
    inbox = new ServiceClient('inbox', ClientProxyFactory.create(rmqClientOptions(config, 'inbox')), 5_000);
  });

  afterAll(async () => {
    await inbox?.close();
    await app?.close();
    const connection = await connect(config.amqpUrl);
    const channel = await connection.createChannel();
    await channel.deleteQueue(queueName(config.namespace, 'inbox'));
    await channel.deleteQueue(deadLetterQueueName(config.namespace, 'inbox'));
    await connection.close();
    await testDatabase?.drop();
  });

  it('is ready once its database and the broker (on its own channel and on its client to dispatch) are, and answers its ping', async () => {
    // Asked until ready: each check has 2 s to answer, which a busy machine's first round trips can take.
    await eventually(async () => {
      const response = await fetch(new URL('/readyz', await app.getUrl()));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ready: true, checks: { database: 'ok', broker: 'ok', 'broker:dispatch': 'ok' } });
    }, { timeoutMs: 15_000, intervalMs: 250 });
    await expect(inbox.send(pingPattern('inbox'), {})).resolves.toEqual({ ok: true });
  });

  it('stores a sync once and lists it over the broker', async () => {
    const command = {
      messages: [
        { clientId: 11, phoneId: 4, from: '+38164123456', message: 'Yes please', receivedAt: '2026-11-22T11:00:00+01:00', externalId: 'sms-1' },
        { clientId: 11, phoneId: 4, from: '+38164123456', message: 'And tomorrow?', receivedAt: '2026-11-22T10:05:00Z' },
      ],
    };

    const first = await inbox.send<MessagesStored>(Patterns.inbox.messagesStore, command);
    const again = await inbox.send<MessagesStored>(Patterns.inbox.messagesStore, command);
    const page = await inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: 11, page: 1, pageSize: 10 });

    expect(first).toEqual({ stored: 2, duplicates: 0 });
    expect(again).toEqual({ stored: 0, duplicates: 2 });
    expect(page).toEqual({
      items: [
        { id: expect.any(Number), clientId: 11, phoneId: 4, from: '+38164123456', message: 'And tomorrow?', encrypted: false, receivedAt: '2026-11-22T10:05:00.000Z', storedAt: expect.any(String) },
        { id: expect.any(Number), clientId: 11, phoneId: 4, from: '+38164123456', message: 'Yes please', encrypted: false, receivedAt: '2026-11-22T10:00:00.000Z', storedAt: expect.any(String) },
      ],
      total: 2,
      page: 1,
      pageSize: 10,
    });
  });

  it.each([
    ['no messages', { messages: [] }],
    ['an unknown field', { messages: [{ from: '+381641', message: 'x', receivedAt: '2026-11-22T10:00:00Z', sim: 2 }] }],
    ['a sender with characters a number cannot have', { messages: [{ from: "+381'; DROP", message: 'x', receivedAt: '2026-11-22T10:00:00Z' }] }],
    ['a time that is not ISO 8601', { messages: [{ from: '+381641', message: 'x', receivedAt: '22.11.2026 10:00' }] }],
    ['a time without a zone', { messages: [{ from: '+381641', message: 'x', receivedAt: '2026-11-22T10:00:00' }] }],
    ['a NUL in the text', { messages: [{ from: '+381641', message: 'x\u0000', receivedAt: '2026-11-22T10:00:00Z' }] }],
    ['a client id that is not a positive integer', { messages: [{ clientId: '11', from: '+381641', message: 'x', receivedAt: '2026-11-22T10:00:00Z' }] }],
  ])('refuses a store with %s as invalid_request', async (_, payload) => {
    await expect(inbox.send(Patterns.inbox.messagesStore, payload)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it.each([
    ['page 0', { page: 0, pageSize: 10 }],
    ['a page size over 200', { page: 1, pageSize: 201 }],
    ['a search over 200 characters', { page: 1, pageSize: 10, search: 'x'.repeat(201) }],
  ])('refuses a list with %s as invalid_request', async (_, payload) => {
    await expect(inbox.send(Patterns.inbox.messagesList, payload)).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
