import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPgAdapter } from '@smsq/persistence';
import { PrismaClient } from '../generated/prisma/client.js';

/** The dashboard schema's Prisma client, one connection pool per process. */
export class DashboardDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(databaseUrl: string) {
    super({ adapter: createPgAdapter(databaseUrl, { applicationName: 'smsq-dashboard', maxConnections: 5 }) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
