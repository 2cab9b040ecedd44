import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Refusal, type ValidCreateTask } from './create-task-rules.js';

export interface StoredTask {
  id: number;
  phoneId: number;
  creditsRemaining: number;
}

/**
 * Written apart from the services' repositories on purpose (one-process-server.ts says why).
 * The statements of the pgbench baseline (`CREATE_TASK_SQL`), prepared, with the request's values
 * and the real balances. The charge is written kept: task and charge commit together, so there is
 * nothing for billing's settlement sweeper to ask dispatch about later in the bench.
 */
const STATEMENTS = {
  lockAccount: `SELECT daily_remaining, bonus_remaining FROM "billing"."accounts" WHERE client_id = $1 FOR UPDATE`,
  debit: `UPDATE "billing"."accounts" SET daily_remaining = $2, bonus_remaining = $3, updated_at = now() WHERE client_id = $1`,
  charge: `INSERT INTO "billing"."task_charges" (task_key, client_id, bucket, state, debited_at, settled_at)
           VALUES ($1, $2, $3::"billing"."credit_bucket", 'kept', now(), now())`,
  ledger: `INSERT INTO "billing"."ledger_entries" (client_id, kind, bucket, amount, task_key, balance_after)
           VALUES ($1, 'debit', $2::"billing"."credit_bucket", -1, $3, $4)`,
  lockPool: `SELECT pg_advisory_xact_lock(hashtextextended('dispatch.pool:' || $1::int, 0))`,
  leastRecentlyUsed: `SELECT id FROM "dispatch"."phones" WHERE kind = 'gateway' AND client_id = $1 AND active
                      ORDER BY last_assigned_at ASC NULLS FIRST, id LIMIT 1 FOR UPDATE`,
  assign: `UPDATE "dispatch"."phones" SET last_assigned_at = clock_timestamp() WHERE id = $1`,
  insert: `INSERT INTO "dispatch"."tasks" (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local, attempts)
           VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, 0) RETURNING id`,
} as const;

type Statement = keyof typeof STATEMENTS;

/** One create-task as one transaction: debit, charge and ledger entry, the least recently used gateway, the task. */
export class CreateTaskStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(clientId: number, task: ValidCreateTask): Promise<StoredTask> {
    const connection = await this.pool.connect();
    const run = <R extends pg.QueryResultRow>(name: Statement, values: unknown[]) =>
      connection.query<R>({ name: `one-process-${name}`, text: STATEMENTS[name], values });
    try {
      await connection.query('BEGIN');
      const account = (await run<{ daily_remaining: number; bonus_remaining: number }>('lockAccount', [clientId])).rows[0];
      if (!account) throw new Refusal(401, 'unauthorized', 'the client has no account');
      const bucket = account.daily_remaining > 0 ? 'daily' : account.bonus_remaining > 0 ? 'bonus' : undefined;
      if (!bucket) throw new Refusal(402, 'insufficient_credits', 'no credits left');
      const daily = account.daily_remaining - (bucket === 'daily' ? 1 : 0);
      const bonus = account.bonus_remaining - (bucket === 'bonus' ? 1 : 0);
      const taskKey = randomUUID();
      await run('debit', [clientId, daily, bonus]);
      await run('charge', [taskKey, clientId, bucket]);
      await run('ledger', [clientId, bucket, taskKey, daily + bonus]);
      await run('lockPool', [clientId]);
      const phone = (await run<{ id: number }>('leastRecentlyUsed', [clientId])).rows[0];
      if (!phone) throw new Refusal(503, 'no_active_gateway', 'no active gateway can take the task');
      await run('assign', [phone.id]);
      const stored = await run<{ id: number }>('insert', [taskKey, clientId, phone.id, task.recipient, task.message, task.scheduledAt, task.scheduledLocal]);
      await connection.query('COMMIT');
      return { id: stored.rows[0]!.id, phoneId: phone.id, creditsRemaining: daily + bonus };
    } catch (error) {
      await connection.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      connection.release();
    }
  }
}
