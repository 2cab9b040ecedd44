import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPgAdapter } from '@smsq/persistence';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type InboxTransaction = Prisma.TransactionClient;

/** The inbox schema's Prisma client, one connection pool per process. */
export class InboxDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(databaseUrl: string) {
    super({ adapter: createPgAdapter(databaseUrl, { applicationName: 'smsq-inbox', maxConnections: 10 }) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }

  /** Several reads that see one moment, so a page and its total agree while replies arrive. */
  snapshot<T>(read: (tx: InboxTransaction) => Promise<T>): Promise<T> {
    return this.$transaction(read, { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 10_000, timeout: 15_000 });
  }
}
