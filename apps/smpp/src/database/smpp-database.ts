import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPgAdapter, PoolProgress } from '@smsq/persistence';
import { PrismaClient } from '../generated/prisma/client.js';

/** The smpp schema's Prisma client, one connection pool per process. */
export class SmppDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /** When its pool last had a query answered (liveness tells a slow pool from a broken one). */
  readonly progress: PoolProgress;

  constructor(databaseUrl: string) {
    const progress = new PoolProgress();
    super({ adapter: createPgAdapter(databaseUrl, { applicationName: 'smsq-smpp', maxConnections: 10, limits: { statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 30_000 }, progress }) });
    this.progress = progress;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
