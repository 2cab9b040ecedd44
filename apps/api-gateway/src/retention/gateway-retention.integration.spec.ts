import { fileURLToPath } from 'node:url';
import { loadConfig, Readiness, RetentionPruner } from '@smsq/platform';
import { createTestDatabase, holdRowsLocked, whileWriting, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readGatewayConfig, type GatewayConfig } from '../config/gateway-config.js';
import { GatewayDatabase } from '../database/gateway-database.js';
import { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { hashBody, IdempotencyService } from '../idempotency/idempotency.service.js';
import { gatewayPrunes } from './gateway-retention.js';

const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
const REPLAY_S = 120;
const BODY = { recipient: '+381641234567', message: 'hello' };

describe(`${RetentionPruner.name} of the gateway on Postgres`, () => {
  let database: TestDatabase;
  let config: GatewayConfig;
  let db: GatewayDatabase;
  let records: IdempotencyRepository;
  let idempotency: IdempotencyService;

  beforeAll(async () => {
    database = await createTestDatabase('gateway_retention', [{ schema: 'gateway', migrationsDir: MIGRATIONS }]);
    config = loadConfig(readGatewayConfig, { DATABASE_URL: database.url, SMSQ_RETENTION_IDEMPOTENCY_S: String(REPLAY_S) });
    db = new GatewayDatabase(config, new Readiness());
    await db.onModuleInit();
    records = new IdempotencyRepository(db);
    idempotency = new IdempotencyService(records, config);
  });

  afterAll(async () => {
    await db?.onModuleDestroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await db.$executeRaw`TRUNCATE "gateway"."idempotency_records"`;
  });

  async function record(clientId: number, key: string, ageS: number, answered = true): Promise<void> {
    await db.$executeRaw`
      INSERT INTO "gateway"."idempotency_records" (client_id, key, request_hash, status_code, response, created_at)
      VALUES (${clientId}, ${key}, ${hashBody(BODY)}, ${answered ? 201 : null}, ${answered ? '{"ok":true}' : null}::jsonb, now() - ${ageS}::int * interval '1 second')`;
  }

  const keys = async () => (await db.idempotencyRecord.findMany({ select: { clientId: true, key: true } })).map((row) => `${row.clientId}/${row.key}`).sort();

  it('prunes exactly the records past the replay window, while new keys are used, and a record still replayable is replayed after it', async () => {
    await record(1, 'answered-long-ago', REPLAY_S + 3_600);
    await record(1, 'left-in-progress-long-ago', REPLAY_S + 3_600, false);
    await record(2, 'answered-long-ago', REPLAY_S + 5);
    await record(1, 'held-by-a-repeat', REPLAY_S + 3_600);
    await record(1, 'still-replayable', REPLAY_S - 30);
    await record(2, 'just-made', 0);
    const expired = Array.from({ length: 40 }, (_, index) => `old-${index}`);
    for (const key of expired) await record(3, key, REPLAY_S + 60);
    // A repeat of this key is dropping it right now, as the gateway does with one past its window.
    const heldLock = await holdRowsLocked(database.url, `SELECT 1 FROM "gateway"."idempotency_records" WHERE client_id = 1 AND key = 'held-by-a-repeat' FOR UPDATE`);
    const used: string[] = [];
    let next = 0;
    const newKeys = async () => {
      const key = `new-${next++}`;
      await idempotency.run(4, key, BODY, { run: async () => ({ ok: true, key }), recover: vi.fn() });
      used.push(`4/${key}`);
    };
    const sut = new RetentionPruner('gateway', db, gatewayPrunes(config), config.retentionIntervalS, { batchRows: 3, maxBatches: 1_000 });

    let outcome: { result: Record<string, number>; writes: number };
    try {
      outcome = await whileWriting([newKeys], () => sut.pruneOnce());
    } finally {
      await heldLock.release();
    }

    expect(outcome.writes).toBeGreaterThan(0);
    expect(outcome.result).toEqual({ 'gateway.idempotency_records': 3 + expired.length });
    expect(await keys()).toEqual(['1/held-by-a-repeat', '1/still-replayable', '2/just-made', ...used].sort());
    const work = { run: vi.fn(), recover: vi.fn() };
    expect(await idempotency.run(1, 'still-replayable', BODY, work)).toEqual({ ok: true });
    expect(work.run).not.toHaveBeenCalled();
    expect(await sut.pruneOnce()).toEqual({ 'gateway.idempotency_records': 1 });
  });

  it('keeps a record for exactly as long as the gateway replays it', async () => {
    const answer = { ok: true, id: 7 };
    await idempotency.run(5, 'k', BODY, { run: async () => answer, recover: vi.fn() });
    const sut = new RetentionPruner('gateway', db, gatewayPrunes(config), config.retentionIntervalS);

    await sut.pruneOnce(new Date(Date.now() + (REPLAY_S - 5) * 1_000));
    expect(await idempotency.run(5, 'k', BODY, { run: vi.fn(), recover: vi.fn() })).toEqual(answer);

    expect(await sut.pruneOnce(new Date(Date.now() + (REPLAY_S + 1) * 1_000))).toEqual({ 'gateway.idempotency_records': 1 });
    expect(await keys()).toEqual([]);
  });

  it('lets replicas prune at once: both finish, and together they delete each expired record once and nothing else', async () => {
    await db.$executeRaw`
      INSERT INTO "gateway"."idempotency_records" (client_id, key, request_hash, created_at)
      SELECT n % 7, 'k' || n, ${'0'.repeat(64)}, CASE WHEN n % 5 = 0 THEN now() ELSE now() - interval '1 day' END FROM generate_series(1, 1000) AS n`;
    const replicas = [0, 1].map(() => new RetentionPruner('gateway', db, gatewayPrunes(config), 300, { batchRows: 50, maxBatches: 1_000 }));

    const runs = await Promise.all(replicas.map((replica) => replica.pruneOnce()));

    expect(runs.reduce((sum, run) => sum + (run['gateway.idempotency_records'] ?? 0), 0)).toBe(800);
    expect(await db.idempotencyRecord.count()).toBe(200);
    expect(await db.idempotencyRecord.count({ where: { createdAt: { lt: new Date(Date.now() - 3_600_000) } } })).toBe(0);
  });
});
