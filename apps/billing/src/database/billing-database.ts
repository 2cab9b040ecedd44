import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPgPool, PgSql, PoolProgress, prismaAdapterOn, type SessionLimits, type SqlSession } from '@smsq/persistence';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** An open transaction of `BillingDatabase.transaction`: raw SQL, sent by `pg`. */
export type BillingTransaction = SqlSession;

/** A read-only snapshot through Prisma's client (audits), whose model queries it reads with. */
export type BillingSnapshot = Prisma.TransactionClient;

/**
 * Debits, refunds and grants are a few statements under one account's row lock, so a session left
 * idle in its transaction blocks that client's every debit: 10 s at most. An audit reads a whole
 * ledger per statement: 10 s.
 */
const BILLING_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 10_000, idleInTransactionTimeoutMs: 10_000 };

/**
 * The billing schema's Prisma client, one connection pool per process, and `sql`: the account
 * transactions' raw SQL, sent by `pg` on the same pool.
 */
export class BillingDatabase extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /** When its pool last had a query answered (liveness tells a slow pool from a broken one). */
  readonly progress: PoolProgress;
  readonly sql: PgSql;

  constructor(databaseUrl: string) {
    const progress = new PoolProgress();
    const pool = createPgPool(databaseUrl, { applicationName: 'smsq-billing', maxConnections: 10, limits: BILLING_SESSION_LIMITS, progress });
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

  /**
   * Read committed is enough: every change to an account happens while holding its row lock. It is
   * every session's default (`createPgPool`), not asked per transaction: it would be a statement
   * of its own, a round trip in every debit. The transaction's time is generous because debits of
   * one busy client queue up behind that lock; a free connection is waited for 5 s at most, the
   * pool's own bound.
   */
  transaction<T>(work: (tx: BillingTransaction) => Promise<T>): Promise<T> {
    return this.sql.transaction(work, { timeoutMs: 15_000 });
  }

  /** Several reads that see one consistent moment, for audits taken while debits go on. */
  snapshot<T>(read: (tx: BillingSnapshot) => Promise<T>): Promise<T> {
    return this.$transaction(read, { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 5_000, timeout: 60_000 });
  }
}
