import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPgAdapter, type SessionLimits } from '@smsq/persistence';
import { PrismaClient } from '../generated/prisma/client.js';

/** Users, sign-ins and reset tokens: single-row statements and two-statement transactions. */
const DASHBOARD_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 10_000 };

/** The dashboard schema's Prisma client, one connection pool per process. */
export class DashboardDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(databaseUrl: string) {
    super({ adapter: createPgAdapter(databaseUrl, { applicationName: 'smsq-dashboard', maxConnections: 5, limits: DASHBOARD_SESSION_LIMITS }) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
