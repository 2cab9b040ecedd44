import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ClientView } from '@smsq/contracts';
import { createRedis, loadConfig, Readiness, type ServiceClient } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientsRepository } from '../clients/clients.repository.js';
import { ClientsService } from '../clients/clients.service.js';
import { readGatewayConfig } from '../config/gateway-config.js';
import { GatewayDatabase } from '../database/gateway-database.js';
import { ApiKeysRepository } from '../identity/api-keys.repository.js';
import { ApiKeysService } from '../identity/api-keys.service.js';
import { CredentialCache } from '../identity/credential-cache.js';
import { CredentialLookup } from '../identity/credential-lookup.js';
import { WorkerTokensRepository } from '../identity/worker-tokens.repository.js';
import { WorkerTokensService } from '../identity/worker-tokens.service.js';

const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Billing and dispatch are not asked anything by the lists; a call to either would be a bug here. */
const noBilling = {
  send: () => Promise.reject(new Error('billing and dispatch must not be asked')),
} as unknown as ServiceClient;

describe('what an admin and a client may list and revoke in the gateway', () => {
  let database: TestDatabase;
  let db: GatewayDatabase;
  let redis: Redis;
  let clients: ClientsService;
  let keys: ApiKeysService;
  let tokens: WorkerTokensService;
  let repository: ClientsRepository;

  beforeAll(async () => {
    database = await createTestDatabase('gateway', [{ schema: 'gateway', migrationsDir: MIGRATIONS }]);
    const config = loadConfig(readGatewayConfig, { DATABASE_URL: database.url, SMSQ_NAMESPACE: `gwtest_${randomBytes(4).toString('hex')}` });
    db = new GatewayDatabase(config, new Readiness());
    await db.onModuleInit();
    redis = createRedis(config);
    const cache = new CredentialCache(redis);
    const lookup = new CredentialLookup(cache);
    repository = new ClientsRepository(db);
    keys = new ApiKeysService(new ApiKeysRepository(db), cache, lookup);
    clients = new ClientsService(config, repository, keys, noBilling, noBilling);
    tokens = new WorkerTokensService(new WorkerTokensRepository(db), cache, lookup);
  });

  afterAll(async () => {
    await db?.onModuleDestroy();
    await redis?.quit();
    await database?.drop();
  });

  describe('clients', () => {
    const names = ['Acme d.o.o.', 'ACME Shop', '100% Honey', 'Snake_case Ltd', 'Back\\slash', 'Snakes and co', 'Plain'];
    let created: ClientView[];

    beforeAll(async () => {
      for (const name of names) await repository.insert(name, 'Europe/Belgrade');
      created = (await clients.list({ page: 1, pageSize: 200 })).items;
    });

    const namesOf = (items: ClientView[]) => items.map((client) => client.name);

    it('lists the newest first, with the total', async () => {
      expect(namesOf(created)).toEqual([...names].reverse());
      expect(created[0]).toEqual({ id: expect.any(Number), name: 'Plain', timezone: 'Europe/Belgrade', createdAt: expect.any(String), disabledAt: null });
      const createdAt = created.map((client) => client.createdAt);
      expect(createdAt).toEqual([...createdAt].sort().reverse());
    });

    it('pages, the total staying the whole count', async () => {
      const pages = await Promise.all([1, 2, 3, 4].map((page) => clients.list({ page, pageSize: 2 })));

      expect(pages.map((page) => namesOf(page.items))).toEqual([
        ['Plain', 'Snakes and co'],
        ['Back\\slash', 'Snake_case Ltd'],
        ['100% Honey', 'ACME Shop'],
        ['Acme d.o.o.'],
      ]);
      expect(pages.map((page) => page.total)).toEqual([7, 7, 7, 7]);
      await expect(clients.list({ page: 2 ** 50, pageSize: 200 })).resolves.toMatchObject({ items: [], total: 7 });
    });

    it('finds part of a name whatever its case', async () => {
      await expect(clients.list({ search: 'acme', page: 1, pageSize: 10 })).resolves.toMatchObject({ total: 2, items: [{ name: 'ACME Shop' }, { name: 'Acme d.o.o.' }] });
      await expect(clients.list({ search: '  sNaKe ', page: 1, pageSize: 10 })).resolves.toMatchObject({ total: 2 });
    });

    it.each([
      ['%', ['100% Honey']],
      ['_', ['Snake_case Ltd']],
      ['e_c', ['Snake_case Ltd']],
      ['\\', ['Back\\slash']],
      ['%Honey', []],
    ])('reads %j as text, not as a pattern', async (search, expected) => {
      expect(namesOf((await clients.list({ search, page: 1, pageSize: 10 })).items)).toEqual(expected);
    });

    it('finds a client by its exact id when the search is a number', async () => {
      const acme = created.find((client) => client.name === 'ACME Shop')!;
      const found = await clients.list({ search: String(acme.id), page: 1, pageSize: 10 });

      const expected = created.filter((client) => client.id === acme.id || client.name.includes(String(acme.id)));
      expect(namesOf(found.items)).toEqual(namesOf(expected));
      expect(found.items).toContainEqual(acme);
      // Numbers no id can be still search names, and never fail.
      await expect(clients.list({ search: '9999999999', page: 1, pageSize: 10 })).resolves.toMatchObject({ total: 0 });
      await expect(clients.list({ search: '99999999999999999999', page: 1, pageSize: 10 })).resolves.toMatchObject({ total: 0 });
      expect(namesOf((await clients.list({ search: '100', page: 1, pageSize: 10 })).items)).toContain('100% Honey');
    });

    it('lists everyone for a blank search', async () => {
      await expect(clients.list({ search: '   ', page: 1, pageSize: 10 })).resolves.toMatchObject({ total: 7 });
    });
  });

  describe('API keys', () => {
    let client1: number;
    let client2: number;

    beforeAll(async () => {
      client1 = await repository.insert('keys one', 'Europe/Belgrade');
      client2 = await repository.insert('keys two', 'Europe/Belgrade');
    });

    it('lists a client’s own keys, newest first, revoked ones included, never the key', async () => {
      const first = await keys.create(client1);
      const second = await keys.create(client1, '  shop backend ');
      const theirs = await keys.create(client2);
      await keys.revoke({ keyId: first.keyId, clientId: client1 });

      const listed = await keys.list(client1);

      expect(listed.map((key) => key.id)).toEqual([second.keyId, first.keyId]);
      expect(listed[0]).toEqual({ id: second.keyId, clientId: client1, prefix: second.prefix, name: 'shop backend', createdAt: expect.any(String), lastUsedAt: null, revokedAt: null });
      expect(listed[1]!.name).toBeNull();
      expect(listed[1]!.revokedAt).toEqual(expect.any(String));
      expect(JSON.stringify(listed)).not.toContain(second.apiKey);
      expect((await keys.list(client2)).map((key) => key.id)).toEqual([theirs.keyId]);
    });

    it('does not list the keys of a client that does not exist', async () => {
      await expect(keys.list(99_999)).rejects.toMatchObject({ code: 'not_found' });
      await expect(keys.list(2 ** 40)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('lets a client revoke its own key, which stops working at once', async () => {
      const key = await keys.create(client1);
      await expect(keys.authenticate(key.apiKey)).resolves.toMatchObject({ clientId: client1 });

      await expect(keys.revoke({ keyId: key.keyId, clientId: client1 })).resolves.toEqual({ ok: true });

      await expect(keys.authenticate(key.apiKey)).resolves.toBeUndefined();
      await expect(keys.revoke({ keyId: key.keyId, clientId: client1 })).resolves.toEqual({ ok: true });
    });

    it('does not let a client revoke another client’s key, which keeps working', async () => {
      const theirs = await keys.create(client2);
      await expect(keys.authenticate(theirs.apiKey)).resolves.toMatchObject({ clientId: client2 });

      await expect(keys.revoke({ keyId: theirs.keyId, clientId: client1 })).rejects.toMatchObject({ code: 'not_found' });

      await expect(keys.authenticate(theirs.apiKey)).resolves.toMatchObject({ clientId: client2 });
      expect((await keys.list(client2)).find((key) => key.id === theirs.keyId)?.revokedAt).toBeNull();
    });

    it('lets an admin revoke any key, and finds no key that does not exist', async () => {
      const theirs = await keys.create(client2);
      await expect(keys.revoke({ keyId: theirs.keyId })).resolves.toEqual({ ok: true });
      await expect(keys.authenticate(theirs.apiKey)).resolves.toBeUndefined();

      await expect(keys.revoke({ keyId: 99_999 })).rejects.toMatchObject({ code: 'not_found' });
      await expect(keys.revoke({ keyId: 2 ** 40 })).rejects.toMatchObject({ code: 'not_found' });
      await expect(keys.revoke({ keyId: theirs.keyId, clientId: 2 ** 40 })).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('worker tokens', () => {
    it('lists every token, or one phone’s, newest first, never the token', async () => {
      const ofPhone5 = await tokens.issue(5);
      const unbound = await tokens.issue(null);
      const ofPhone6 = await tokens.issue(6);
      const reissued = await tokens.reissueForPhone(5);

      const all = await tokens.list({});
      expect(all.map((token) => token.id)).toEqual([reissued.tokenId, ofPhone6.tokenId, unbound.tokenId, ofPhone5.tokenId]);
      expect(all[2]).toEqual({ id: unbound.tokenId, phoneId: null, prefix: unbound.prefix, createdAt: expect.any(String), lastUsedAt: null, revokedAt: null });
      expect(JSON.stringify(all)).not.toContain(reissued.workerToken);

      const phone5 = await tokens.list({ phoneId: 5 });
      expect(phone5.map((token) => [token.id, token.revokedAt === null])).toEqual([
        [reissued.tokenId, true],
        [ofPhone5.tokenId, false],
      ]);
      await expect(tokens.list({ phoneId: 7 })).resolves.toEqual([]);
      await expect(tokens.list({ phoneId: 2 ** 40 })).resolves.toEqual([]);
    });

    it('finds no worker token beyond any stored id', async () => {
      await expect(tokens.revoke(2 ** 40)).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  it('refuses a disabled client’s keys at once, cached or not, and an enabled client’s again, without reviving a revoked one', async () => {
    const clientId = await repository.insert('Paused Ltd', 'Europe/Belgrade');
    const live = await keys.create(clientId);
    const revoked = await keys.create(clientId);
    await keys.revoke({ keyId: revoked.keyId, clientId });
    expect(await keys.authenticate(live.apiKey)).toMatchObject({ clientId });

    const disabled = await clients.setDisabled({ clientId, disabled: true });

    expect(disabled).toMatchObject({ id: clientId, disabledAt: expect.any(String) });
    expect(await keys.authenticate(live.apiKey)).toBeUndefined();
    expect((await clients.setDisabled({ clientId, disabled: true })).disabledAt).toBe(disabled.disabledAt);
    expect(await clients.setDisabled({ clientId, disabled: false })).toMatchObject({ disabledAt: null });
    expect(await keys.authenticate(live.apiKey)).toMatchObject({ clientId });
    expect(await keys.authenticate(revoked.apiKey)).toBeUndefined();
    await expect(clients.setDisabled({ clientId: 2_147_483_000, disabled: true })).rejects.toMatchObject({ code: 'not_found' });
  });
});
