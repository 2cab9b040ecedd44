import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createPgAdapter } from '@smsq/persistence';
import { DispatchConfig } from '../config/dispatch-config.js';
import { PrismaClient } from '../generated/prisma/client.js';

/** The Prisma client of the `dispatch` schema, connected for the life of the module. */
@Injectable()
export class DispatchDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(config: DispatchConfig) {
    super({ adapter: createPgAdapter(config.databaseUrl, { applicationName: 'smsq-dispatch' }) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
