import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createPgAdapter, databaseAnswersAfresh, type SessionLimits } from '@smsq/persistence';
import { Readiness } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import { PrismaClient } from '../generated/prisma/client.js';

/**
 * Credential, idempotency and phone-pairing lookups: single-row statements and short transactions,
 * all inside a request that gives up after the broker's 5 s anyway.
 */
const GATEWAY_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 5_000, idleInTransactionTimeoutMs: 10_000 };

/** The gateway's own schema: clients, API keys, worker tokens and idempotency records. */
@Injectable()
export class GatewayDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(config: GatewayConfig, readiness: Readiness) {
    super({ adapter: createPgAdapter(config.databaseUrl, { applicationName: 'smsq-gateway', limits: GATEWAY_SESSION_LIMITS }) });
    readiness.register('database', () => this.$queryRaw`SELECT 1`, { reachable: () => databaseAnswersAfresh(config.databaseUrl) });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
