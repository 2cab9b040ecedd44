import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Patterns } from '@smsq/contracts';
import { createRedis, loadConfig, Readiness, type ServiceClient } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readGatewayConfig, type GatewayConfig } from '../config/gateway-config.js';
import { GatewayDatabase } from '../database/gateway-database.js';
import { ApiKeysRepository } from '../identity/api-keys.repository.js';
import { ApiKeysService } from '../identity/api-keys.service.js';
import { CredentialCache } from '../identity/credential-cache.js';
import { CredentialLookup } from '../identity/credential-lookup.js';
import { hashSecret } from '../identity/secret.js';
import { ClientsRepository } from './clients.repository.js';
import { ClientsService } from './clients.service.js';

const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

const noBilling = { send: () => Promise.reject(new Error('billing must not be asked')) } as unknown as ServiceClient;

/** What dispatch was told, answering as dispatch does. */
class RecordingDispatch {
  readonly sent: Array<{ pattern: string; payload: unknown }> = [];
  async send<T>(pattern: string, payload: unknown): Promise<T> {
    this.sent.push({ pattern, payload });
    return { ok: true } as T;
  }
}

/** One gateway instance: its own cache object and lookup over the shared Redis and database. */
function gatewayInstance(db: GatewayDatabase, redis: Redis): ApiKeysService {
  const cache = new CredentialCache(redis);
  return new ApiKeysService(new ApiKeysRepository(db), cache, new CredentialLookup(cache));
}

describe(`${ClientsService.name}: a client's time zone`, () => {
  let database: TestDatabase;
  let config: GatewayConfig;
  let db: GatewayDatabase;
  let redis: Redis;
  let dispatch: RecordingDispatch;
  let sut: ClientsService;
  let gatewayA: ApiKeysService;
  let gatewayB: ApiKeysService;

  beforeAll(async () => {
    database = await createTestDatabase('gateway_tz', [{ schema: 'gateway', migrationsDir: MIGRATIONS }]);
    config = loadConfig(readGatewayConfig, { DATABASE_URL: database.url, SMSQ_NAMESPACE: `gwtest_${randomBytes(4).toString('hex')}` });
    db = new GatewayDatabase(config, new Readiness());
    await db.onModuleInit();
    redis = createRedis(config);
    gatewayA = gatewayInstance(db, redis);
    gatewayB = gatewayInstance(db, redis);
  });

  beforeEach(() => {
    dispatch = new RecordingDispatch();
    sut = new ClientsService(config, new ClientsRepository(db), gatewayA, noBilling, dispatch as unknown as ServiceClient);
  });

  afterAll(async () => {
    await db?.onModuleDestroy();
    await redis?.quit();
    await database?.drop();
  });

  async function clientWithKey(): Promise<{ clientId: number; apiKey: string }> {
    const clientId = await new ClientsRepository(db).insert(`tz ${randomBytes(3).toString('hex')}`, 'Europe/Belgrade');
    const { apiKey } = await gatewayA.create(clientId);
    return { clientId, apiKey };
  }

  it('moves the key owners every gateway has cached to the new zone at once, and tells dispatch', async () => {
    const { clientId, apiKey } = await clientWithKey();
    expect((await gatewayA.authenticate(apiKey))?.timezone).toBe('Europe/Belgrade');
    expect((await gatewayB.authenticate(apiKey))?.timezone).toBe('Europe/Belgrade');

    const changed = await sut.setTimezone({ clientId, timezone: 'America/New_York' });

    expect(changed).toMatchObject({ id: clientId, timezone: 'America/New_York' });
    expect((await gatewayA.authenticate(apiKey))?.timezone).toBe('America/New_York');
    expect((await gatewayB.authenticate(apiKey))?.timezone).toBe('America/New_York');
    expect(await sut.get(clientId)).toMatchObject({ timezone: 'America/New_York' });
    expect(dispatch.sent).toEqual([{ pattern: Patterns.dispatch.clientTimezoneChanged, payload: { clientId, timezone: 'America/New_York', version: 1 } }]);
  });

  it('numbers each change, so dispatch can keep the latest when two arrive out of order', async () => {
    const { clientId } = await clientWithKey();

    await sut.setTimezone({ clientId, timezone: 'Asia/Tokyo' });
    await sut.setTimezone({ clientId, timezone: 'Europe/London' });

    expect(dispatch.sent.map(({ payload }) => payload)).toEqual([
      { clientId, timezone: 'Asia/Tokyo', version: 1 },
      { clientId, timezone: 'Europe/London', version: 2 },
    ]);
  });

  it('is not undone by a lookup that read the old zone before the change and caches it after', async () => {
    const { clientId, apiKey } = await clientWithKey();
    const before = await new ApiKeysRepository(db).findActiveOwner(hashSecret(apiKey));

    await sut.setTimezone({ clientId, timezone: 'Asia/Tokyo' });
    await new CredentialCache(redis).set('key', hashSecret(apiKey), before!);

    expect((await gatewayB.authenticate(apiKey))?.timezone).toBe('Asia/Tokyo');
  });

  it('does not let a disabled client’s keys back in, and they carry the new zone once it is enabled', async () => {
    const { clientId, apiKey } = await clientWithKey();
    await sut.setDisabled({ clientId, disabled: true });

    await sut.setTimezone({ clientId, timezone: 'Europe/London' });

    expect(await gatewayA.authenticate(apiKey)).toBeUndefined();
    await sut.setDisabled({ clientId, disabled: false });
    expect((await gatewayB.authenticate(apiKey))?.timezone).toBe('Europe/London');
  });

  it('refuses a name that is not a time zone (for Node or for Postgres), and a client that does not exist, changing nothing', async () => {
    const { clientId } = await clientWithKey();

    await expect(sut.setTimezone({ clientId, timezone: 'Mars/Olympus' })).rejects.toMatchObject({ code: 'invalid_request' });
    // Node's list knows this old alias, Postgres's does not: it would break every local-day query in SQL.
    await expect(sut.setTimezone({ clientId, timezone: 'US/Pacific-New' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(sut.setTimezone({ clientId: 999_999, timezone: 'UTC' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await sut.get(clientId)).toMatchObject({ timezone: 'Europe/Belgrade' });
    await expect(sut.get(999_999)).rejects.toMatchObject({ code: 'not_found' });
    expect(dispatch.sent).toEqual([]);
  });
});
