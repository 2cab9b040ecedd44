import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createPgAdapter, PoolProgress, databaseAnswersAfresh, type SessionLimits } from '@smsq/persistence';
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
  /** When its pool last had a query answered (liveness tells a slow pool from a broken one). */
  readonly progress: PoolProgress;

  constructor(config: GatewayConfig, readiness: Readiness) {
    const progress = new PoolProgress();
    super({ adapter: createPgAdapter(config.databaseUrl, { applicationName: 'smsq-gateway', limits: GATEWAY_SESSION_LIMITS, progress }) });
    this.progress = progress;
    readiness.register('database', () => this.$queryRaw`SELECT 1`, { reachable: () => databaseAnswersAfresh(config.databaseUrl), alive: () => this.progress.answering() });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
