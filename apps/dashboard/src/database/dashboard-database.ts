import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPgAdapter, PoolProgress, type SessionLimits } from '@smsq/persistence';
import { PrismaClient } from '../generated/prisma/client.js';

/** Users, sign-ins and reset tokens: single-row statements and two-statement transactions. */
const DASHBOARD_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 10_000 };

/** The dashboard schema's Prisma client, one connection pool per process. */
export class DashboardDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /** When its pool last had a query answered (liveness tells a slow pool from a broken one). */
  readonly progress: PoolProgress;

  constructor(databaseUrl: string) {
    const progress = new PoolProgress();
    super({ adapter: createPgAdapter(databaseUrl, { applicationName: 'smsq-dashboard', maxConnections: 5, limits: DASHBOARD_SESSION_LIMITS, progress }) });
    this.progress = progress;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
