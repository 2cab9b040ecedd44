import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createPgPool, PgSql, PoolProgress, prismaAdapterOn, type SessionLimits } from '@smsq/persistence';
import { DispatchConfig } from '../config/dispatch-config.js';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

/**
 * A bulk create writes up to 1,000 tasks in one statement and a sweep settles a batch at a time:
 * 10 s each. The outbox relay keeps its row locked while the receiving service answers, so a
 * transaction may sit idle for a whole broker request (`SMSQ_RPC_TIMEOUT_MS`) and some.
 */
export function dispatchSessionLimits(rpcTimeoutMs: number): SessionLimits {
  return { statementTimeoutMs: 10_000, idleInTransactionTimeoutMs: rpcTimeoutMs + 10_000 };
}

/**
 * The Prisma client of the `dispatch` schema, connected for the life of the module, and `sql`: the
 * repositories' raw SQL and transactions, sent by `pg` on the same pool.
 */
@Injectable()
export class DispatchDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /** When its pool last had a query answered (liveness tells a slow pool from a broken one). */
  readonly progress: PoolProgress;
  readonly sql: PgSql;

  constructor(config: DispatchConfig) {
    const progress = new PoolProgress();
    const pool = createPgPool(config.databaseUrl, { applicationName: 'smsq-dispatch', limits: dispatchSessionLimits(config.rpcTimeoutMs), progress });
    super({ adapter: prismaAdapterOn(pool) });
    this.progress = progress;
    this.sql = new PgSql(pool, Prisma.sql);
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
