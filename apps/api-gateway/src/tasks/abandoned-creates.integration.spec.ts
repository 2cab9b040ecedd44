import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { UnavailableError, type TaskSettleCommand, type TaskSettlement } from '@smsq/contracts';
import { loadConfig, Readiness, type ServiceClient } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readGatewayConfig } from '../config/gateway-config.js';
import { GatewayDatabase } from '../database/gateway-database.js';
import { AbandonedCreates, AbandonedCreatesRelay } from '@smsq/task-intake';

const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Dispatch as the relay sees it: each settle answered after `ms`, every key asked recorded; failing from the `failFrom`-th ask on. */
function dispatchStandIn(asked: string[], options: { ms: number; failFrom?: number }): ServiceClient {
  return {
    send: async (_pattern: string, command: TaskSettleCommand): Promise<TaskSettlement> => {
      await new Promise((resolve) => setTimeout(resolve, options.ms));
      if (options.failFrom !== undefined && asked.length >= options.failFrom) throw new UnavailableError('the dispatch service did not answer; retry later');
      asked.push(command.taskKey);
      return { outcome: 'voided' };
    },
  } as unknown as ServiceClient;
}

describe(`${AbandonedCreatesRelay.name} of two gateways on one database`, () => {
  let database: TestDatabase;
  let dbs: GatewayDatabase[];
  let repositories: AbandonedCreates[];

  beforeAll(async () => {
    database = await createTestDatabase('gateway_abandoned', [{ schema: 'gateway', migrationsDir: MIGRATIONS }]);
    const config = loadConfig(readGatewayConfig, { DATABASE_URL: database.url });
    dbs = [new GatewayDatabase(config, new Readiness()), new GatewayDatabase(config, new Readiness())];
    for (const db of dbs) await db.onModuleInit();
    repositories = dbs.map((db) => new AbandonedCreates(db, 'gateway'));
  });

  afterAll(async () => {
    for (const db of dbs ?? []) await db.onModuleDestroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await dbs[0]!.$executeRaw`TRUNCATE "gateway"."abandoned_creates"`;
  });

  async function abandonKeys(count: number): Promise<string[]> {
    const keys = Array.from({ length: count }, () => randomUUID());
    for (const key of keys) await repositories[0]!.record(key, 1);
    return keys;
  }

  it('settles every key once between them, oldest first in each gateway, and forgets it', async () => {
    const keys = await abandonKeys(120);
    const asked: string[][] = [[], []];
    const relays = repositories.map((repository, index) => new AbandonedCreatesRelay(repository, dispatchStandIn(asked[index]!, { ms: 2 })));

    while ((await dbs[0]!.abandonedCreate.count()) > 0) await Promise.all(relays.map((relay) => relay.relay()));

    expect([...asked[0]!, ...asked[1]!].sort()).toEqual([...keys].sort());
    expect(asked[0]!.length).toBeGreaterThan(0);
    expect(asked[1]!.length).toBeGreaterThan(0);
    for (const one of asked) expect(one).toEqual(keys.filter((key) => one.includes(key)));
  });

  it('a gateway whose settling fails gives the rest of its keys back at once, and keys a dead gateway held are taken again after the lease', async () => {
    const keys = await abandonKeys(10);
    const failing: string[] = [];
    await new AbandonedCreatesRelay(repositories[0]!, dispatchStandIn(failing, { ms: 1, failFrom: 3 })).relay();
    expect(failing).toEqual(keys.slice(0, 3));
    const rest = await repositories[1]!.take(50, 60_000);
    expect(rest).toEqual(keys.slice(3));

    // The keys are held now, as by a gateway that died: nobody takes them until the lease ends.
    expect(await repositories[0]!.take(50, 60_000)).toEqual([]);
    await dbs[0]!.$executeRaw`UPDATE "gateway"."abandoned_creates" SET settling_until = now() - interval '1 millisecond'`;
    expect(await repositories[0]!.take(50, 60_000)).toEqual(keys.slice(3));
  });
});
