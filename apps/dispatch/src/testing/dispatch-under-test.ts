import { fileURLToPath } from 'node:url';
import type { Profile } from '@smsq/contracts';
import { loadConfig } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { readDispatchConfig } from '../config/dispatch-config.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { PhonesRepository } from '../phones/phones.repository.js';
import { PhonesService } from '../phones/phones.service.js';
import { RoutingRepository } from '../routing/routing.repository.js';
import { RoutingService } from '../routing/routing.service.js';
import { TaskCreationService } from '../tasks/task-creation.service.js';
import { TaskLookupService } from '../tasks/task-lookup.service.js';
import { TaskSettlementService } from '../tasks/task-settlement.service.js';
import { TasksRepository } from '../tasks/tasks.repository.js';
import { FakeBillingClient } from './fake-billing.client.js';
import { standIn } from './stand-in.js';

export const DISPATCH_MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
export const DISPATCH_PRISMA_SCHEMA = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url));

/** A database of its own, migrated like a real start. */
export function createDispatchTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase('dispatch', [{ schema: 'dispatch', migrationsDir: DISPATCH_MIGRATIONS }]);
}

export interface DispatchUnderTest {
  db: DispatchDatabase;
  billing: FakeBillingClient;
  creation: TaskCreationService;
  settlement: TaskSettlementService;
  lookup: TaskLookupService;
  phones: PhonesService;
  close(): Promise<void>;
}

/**
 * The dispatch services wired as the app wires them, on real Postgres. Only billing, another
 * service reached over the broker, is a fake.
 */
export async function dispatchUnderTest(databaseUrl: string, profile: Profile): Promise<DispatchUnderTest> {
  const config = loadConfig(readDispatchConfig, { DATABASE_URL: databaseUrl, SMSQ_PROFILE: profile });
  const db = new DispatchDatabase(config);
  await db.onModuleInit();
  const tasks = new TasksRepository(db);
  const routing = new RoutingService(config, new RoutingRepository(db));
  const billing = new FakeBillingClient(1_000);
  const settlement = new TaskSettlementService(tasks, standIn(billing));
  return {
    db,
    billing,
    creation: new TaskCreationService(tasks, routing, standIn(billing), settlement),
    settlement,
    lookup: new TaskLookupService(tasks),
    phones: new PhonesService(config, new PhonesRepository(db)),
    close: () => db.onModuleDestroy(),
  };
}
