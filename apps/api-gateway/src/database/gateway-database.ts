import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createPgAdapter } from '@smsq/persistence';
import { Readiness } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import { PrismaClient } from '../generated/prisma/client.js';

/** The gateway's own schema: clients, API keys, worker tokens and idempotency records. */
@Injectable()
export class GatewayDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(config: GatewayConfig, readiness: Readiness) {
    super({ adapter: createPgAdapter(config.databaseUrl, { applicationName: 'smsq-gateway' }) });
    readiness.register('database', () => this.$queryRaw`SELECT 1`);
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
