import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import type { InboundMessage } from '@smsq/contracts';
import { RETENTION_DEFAULTS } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { InboxConfig } from '../config/inbox-config.js';
import { InboxDatabase } from '../database/inbox-database.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import { MessagesService } from '../messages/messages.service.js';

export const INBOX_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

export function testInboxConfig(overrides: Partial<InboxConfig> = {}): InboxConfig {
  return Object.assign(new InboxConfig(), {
    profile: 'A',
    namespace: 'inboxtest',
    databaseUrl: 'postgresql://postgres@127.0.0.1:5432/unused',
    amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
    queueType: 'classic',
    redisUrl: 'redis://127.0.0.1:6379',
    logFormat: 'text',
    logLevel: 'info',
    rpcTimeoutMs: 2_000,
    port: 0,
    retentionIntervalS: RETENTION_DEFAULTS.intervalS,
    outboxRetentionS: RETENTION_DEFAULTS.outboxS,
    messageRetentionDays: undefined,
    ...overrides,
  } satisfies Partial<InboxConfig>);
}

/** A migrated database of its own, a connected client and the messages service, for one spec file. */
export async function openInboxTestDatabase(label: string, config: InboxConfig = testInboxConfig()): Promise<{ testDatabase: TestDatabase; database: InboxDatabase; messages: MessagesService; close(): Promise<void> }> {
  Logger.overrideLogger(['warn', 'error', 'fatal']);
  const testDatabase = await createTestDatabase(label, [{ schema: 'inbox', migrationsDir: INBOX_MIGRATIONS_DIR }]);
  const database = new InboxDatabase(testDatabase.url);
  await database.onModuleInit();
  return {
    testDatabase,
    database,
    messages: new MessagesService(database, new MessagesRepository(), config),
    close: async () => {
      await database.onModuleDestroy();
      await testDatabase.drop();
    },
  };
}

let lastId = 0;

/** Ids unique within a spec file, so tests sharing a database never share a client or a phone. */
export function nextId(): number {
  lastId += 1;
  return lastId;
}

/** An inbound message as the gateway sends it, with a text unique to this call unless one is given. */
export function inbound(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    from: '+38164123456',
    message: `reply ${nextId()}`,
    receivedAt: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}
