import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPgAdapter, PoolProgress, type SessionLimits } from '@smsq/persistence';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type InboxTransaction = Prisma.TransactionClient;

/**
 * Replies are stored and listed in short statements; the outbox relay keeps its row locked while
 * dispatch answers, so a transaction may sit idle for a whole broker request and some.
 */
export function inboxSessionLimits(rpcTimeoutMs: number): SessionLimits {
  return { statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: rpcTimeoutMs + 10_000 };
}

/** The inbox schema's Prisma client, one connection pool per process. */
export class InboxDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /** When its pool last had a query answered (liveness tells a slow pool from a broken one). */
  readonly progress: PoolProgress;

  constructor(databaseUrl: string, limits: SessionLimits = inboxSessionLimits(5_000)) {
    const progress = new PoolProgress();
    super({ adapter: createPgAdapter(databaseUrl, { applicationName: 'smsq-inbox', maxConnections: 10, limits, progress }) });
    this.progress = progress;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }

  /** Several reads that see one moment, so a page and its total agree while replies arrive. */
  snapshot<T>(read: (tx: InboxTransaction) => Promise<T>): Promise<T> {
    return this.$transaction(read, { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 5_000, timeout: 15_000 });
  }
}
