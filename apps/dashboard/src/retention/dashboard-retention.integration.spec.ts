import { createHash, randomBytes } from 'node:crypto';
import { loadConfig, RetentionPruner } from '@smsq/platform';
import { createTestDatabase, holdRowsLocked, whileWriting, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readDashboardConfig, type DashboardConfig } from '../config/dashboard-config.js';
import { DashboardDatabase } from '../database/dashboard-database.js';
import { PasswordResetsRepository } from '../password-reset/password-resets.repository.js';
import { DASHBOARD_MIGRATIONS_DIR } from '../testing/dashboard-harness.js';
import { dashboardPrunes } from './dashboard-retention.js';

const HOUR_MS = 3_600_000;
const KEEP_S = 3_600;

describe(`${RetentionPruner.name} of the dashboard on Postgres`, () => {
  let database: TestDatabase;
  let config: DashboardConfig;
  let db: DashboardDatabase;
  let resets: PasswordResetsRepository;

  beforeAll(async () => {
    database = await createTestDatabase('dashboard_retention', [{ schema: 'dashboard', migrationsDir: DASHBOARD_MIGRATIONS_DIR }]);
    config = loadConfig(readDashboardConfig, { DATABASE_URL: database.url, SMSQ_RETENTION_PASSWORD_RESET_S: String(KEEP_S) });
    db = new DashboardDatabase(database.url);
    await db.onModuleInit();
    resets = new PasswordResetsRepository(db);
  });

  afterAll(async () => {
    await db?.onModuleDestroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await db.$executeRaw`TRUNCATE "dashboard"."users" RESTART IDENTITY CASCADE`;
  });

  async function userWithReset(expiresAt: Date | null): Promise<number> {
    const [user] = await db.$queryRaw<{ id: number }[]>`
      INSERT INTO "dashboard"."users" (email, password_hash, role) VALUES (${`u${randomBytes(4).toString('hex')}@example.test`}, 'x', 'admin') RETURNING id`;
    if (expiresAt) await resets.replace(user!.id, tokenHash(), expiresAt);
    return user!.id;
  }

  const ago = (ms: number) => new Date(Date.now() - ms);
  const resetUsers = async () => (await db.passwordReset.findMany({ select: { userId: true }, orderBy: { userId: 'asc' } })).map((row) => row.userId);

  it('prunes exactly the resets expired longer than SMSQ_RETENTION_PASSWORD_RESET_S, while users ask for new ones', async () => {
    const expiredLongAgo = await Promise.all(Array.from({ length: 12 }, () => userWithReset(ago(2 * HOUR_MS))));
    const expiredRecently = await userWithReset(ago(HOUR_MS / 2));
    const live = await userWithReset(new Date(Date.now() + HOUR_MS));
    const heldWhileRedeemed = await userWithReset(ago(2 * HOUR_MS));
    // Users whose long-expired reset is replaced by a new one while the prune runs: the new one stays.
    const askingAgain = await Promise.all(Array.from({ length: 6 }, () => userWithReset(ago(2 * HOUR_MS))));
    const newHashes = new Map<number, string>();
    const queue = [...askingAgain];
    const askForNewReset = async () => {
      const userId = queue.shift() ?? (await userWithReset(null));
      const hash = tokenHash();
      await resets.replace(userId, hash, new Date(Date.now() + HOUR_MS));
      newHashes.set(userId, hash);
    };
    const heldLock = await holdRowsLocked(database.url, 'SELECT 1 FROM "dashboard"."password_resets" WHERE user_id = $1 FOR UPDATE', [heldWhileRedeemed]);
    const sut = new RetentionPruner('dashboard', db, dashboardPrunes(config), config.retentionIntervalS, { batchRows: 2, maxBatches: 1_000 });

    let outcome: { result: Record<string, number>; writes: number };
    try {
      outcome = await whileWriting([askForNewReset], () => sut.pruneOnce());
    } finally {
      await heldLock.release();
    }

    expect(outcome.writes).toBeGreaterThan(0);
    const pruned = outcome.result['dashboard.password_resets']!;
    // Each user asking again either had the old reset pruned first or replaced it first.
    const replacedFirst = askingAgain.filter((userId) => newHashes.has(userId)).length;
    expect(pruned).toBeGreaterThanOrEqual(expiredLongAgo.length);
    expect(pruned).toBeLessThanOrEqual(expiredLongAgo.length + replacedFirst);
    expect(await resetUsers()).toEqual([expiredRecently, live, heldWhileRedeemed, ...newHashes.keys()].sort((a, b) => a - b));
    for (const [userId, hash] of newHashes) expect(await db.passwordReset.findUnique({ where: { userId } }), `user ${userId}`).toMatchObject({ tokenHash: hash });
    expect(await sut.pruneOnce()).toEqual({ 'dashboard.password_resets': 1 });
    expect(await resetUsers()).not.toContain(heldWhileRedeemed);
  });

  it('lets replicas prune at once: both finish, and together they delete each expired reset once and nothing else', async () => {
    const expired = await Promise.all(Array.from({ length: 40 }, () => userWithReset(ago(2 * HOUR_MS))));
    const live = await Promise.all(Array.from({ length: 10 }, () => userWithReset(new Date(Date.now() + HOUR_MS))));
    const replicas = [0, 1].map(() => new RetentionPruner('dashboard', db, dashboardPrunes(config), 300, { batchRows: 3, maxBatches: 1_000 }));

    const runs = await Promise.all(replicas.map((replica) => replica.pruneOnce()));

    expect(runs.reduce((sum, run) => sum + (run['dashboard.password_resets'] ?? 0), 0)).toBe(expired.length);
    expect(await resetUsers()).toEqual(live.sort((a, b) => a - b));
  });
});

function tokenHash(): string {
  return createHash('sha256').update(randomBytes(16)).digest('hex');
}
