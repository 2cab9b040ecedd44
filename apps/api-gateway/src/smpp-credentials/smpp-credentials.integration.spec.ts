import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { MAX_SMPP_CREDENTIALS } from '@smsq/contracts';
import { loadConfig, Readiness } from '@smsq/platform';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClientsRepository } from '../clients/clients.repository.js';
import { readGatewayConfig } from '../config/gateway-config.js';
import { GatewayDatabase } from '../database/gateway-database.js';
import { SmppCredentialsRepository } from './smpp-credentials.repository.js';
import { SmppCredentialsService } from './smpp-credentials.service.js';

const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

describe(SmppCredentialsService.name, () => {
  let database: TestDatabase;
  let db: GatewayDatabase;
  let clients: ClientsRepository;
  let sut: SmppCredentialsService;
  let clientId: number;

  beforeAll(async () => {
    database = await createTestDatabase('gateway_smpp', [{ schema: 'gateway', migrationsDir: MIGRATIONS }]);
    const config = loadConfig(readGatewayConfig, { DATABASE_URL: database.url, SMSQ_NAMESPACE: `gwtest_${randomBytes(4).toString('hex')}` });
    db = new GatewayDatabase(config, new Readiness());
    await db.onModuleInit();
    clients = new ClientsRepository(db);
    sut = new SmppCredentialsService(new SmppCredentialsRepository(db));
  });

  beforeEach(async () => {
    clientId = await clients.insert(`smpp ${randomBytes(3).toString('hex')}`, 'Asia/Tokyo');
  });

  afterAll(async () => {
    await db?.onModuleDestroy();
    await database?.drop();
  });

  it('creates a credential whose system_id and password bind, answering who binds in the client’s time zone', async () => {
    const created = await sut.create(clientId, { systemId: `acme${clientId}`, sourceAddresses: ['ACME', '+381641234567', 'ACME'] });

    expect(created).toMatchObject({ clientId, systemId: `acme${clientId}`, sourceAddresses: ['ACME', '+381641234567'], lastBoundAt: null, revokedAt: null });
    expect(created.password).toMatch(/^[A-Za-z0-9]{8}$/);
    const answer = await sut.authenticate(created.systemId, created.password);
    expect(answer).toEqual({
      ok: true,
      identity: { credentialId: created.id, clientId, systemId: created.systemId, sourceAddresses: ['ACME', '+381641234567'], timezone: 'Asia/Tokyo', createdAt: created.createdAt },
    });
  });

  it('records the bind in last_bound_at, at most once a minute', async () => {
    const created = await sut.create(clientId, {});

    await sut.authenticate(created.systemId, created.password);
    const [first] = await sut.list(clientId);
    expect(first!.lastBoundAt).not.toBeNull();
    await sut.authenticate(created.systemId, created.password);
    const [second] = await sut.list(clientId);
    expect(second!.lastBoundAt).toBe(first!.lastBoundAt);
  });

  it('picks a system_id of c<client id> and a random suffix, 8 to 15 characters, when none is asked for', async () => {
    const one = await sut.create(clientId, {});
    const two = await sut.create(clientId, {});

    for (const created of [one, two]) {
      expect(created.systemId.startsWith(`c${clientId}`)).toBe(true);
      expect(created.systemId.length).toBeGreaterThanOrEqual(8);
      expect(created.systemId.length).toBeLessThanOrEqual(15);
    }
    expect(one.systemId).not.toBe(two.systemId);
    expect(one.password).not.toBe(two.password);
  });

  it('tells a wrong password from an unknown system_id', async () => {
    const created = await sut.create(clientId, {});
    const wrong = created.password === 'aaaaaaaa' ? 'bbbbbbbb' : 'aaaaaaaa';

    expect(await sut.authenticate(created.systemId, wrong)).toMatchObject({ ok: false, refusal: 'wrong_password' });
    expect(await sut.authenticate(created.systemId, '')).toMatchObject({ ok: false, refusal: 'wrong_password' });
    expect(await sut.authenticate(`nobody${clientId}`, created.password)).toMatchObject({ ok: false, refusal: 'unknown_system_id' });
    // system_ids are case-sensitive.
    expect(await sut.authenticate(created.systemId.toUpperCase(), created.password)).toMatchObject({ ok: false, refusal: 'unknown_system_id' });
    expect((await sut.list(clientId))[0]!.lastBoundAt).toBeNull();
  });

  it('refuses a revoked credential once the password is right, and keeps its system_id taken', async () => {
    const created = await sut.create(clientId, { systemId: `rev${clientId}` });

    const revoked = await sut.revoke(clientId, created.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect((await sut.revoke(clientId, created.id)).revokedAt).toBe(revoked.revokedAt);

    expect(await sut.authenticate(created.systemId, created.password)).toMatchObject({ ok: false, refusal: 'revoked' });
    expect(await sut.authenticate(created.systemId, 'x')).toMatchObject({ ok: false, refusal: 'wrong_password' });
    await expect(sut.create(clientId, { systemId: `rev${clientId}` })).rejects.toMatchObject({ code: 'conflict' });
    expect(await sut.active([created.id])).toEqual([]);
  });

  it('refuses a disabled client’s credential, and binds it again once the client is enabled', async () => {
    const created = await sut.create(clientId, {});

    await clients.setDisabled(clientId, true);
    expect(await sut.authenticate(created.systemId, created.password)).toMatchObject({ ok: false, refusal: 'client_disabled' });
    expect(await sut.active([created.id])).toEqual([]);

    await clients.setDisabled(clientId, false);
    expect(await sut.authenticate(created.systemId, created.password)).toMatchObject({ ok: true });
    expect(await sut.active([created.id])).toEqual([created.id]);
  });

  it('answers which of the given credentials may still bind, ignoring unknown ids', async () => {
    const live = await sut.create(clientId, {});
    const gone = await sut.create(clientId, {});
    await sut.revoke(clientId, gone.id);

    expect(await sut.active([gone.id, live.id, 2_000_000_000, 99_999_999_999])).toEqual([live.id]);
    expect(await sut.active([])).toEqual([]);
  });

  it('answers conflict for a system_id another client has, case-sensitively', async () => {
    const otherClient = await clients.insert('other', 'Europe/Belgrade');
    await sut.create(otherClient, { systemId: `Kannel${clientId}` });

    await expect(sut.create(clientId, { systemId: `Kannel${clientId}` })).rejects.toMatchObject({ code: 'conflict', detail: expect.stringContaining('taken') });
    expect((await sut.create(clientId, { systemId: `kannel${clientId}` })).systemId).toBe(`kannel${clientId}`);
  });

  it('stores the password only as a salted scrypt hash', async () => {
    const created = await sut.create(clientId, {});
    const again = await sut.create(clientId, {});

    const rows = await db.smppCredential.findMany({ where: { id: { in: [created.id, again.id] } }, orderBy: { id: 'asc' } });
    for (const [row, password] of [[rows[0]!, created.password], [rows[1]!, again.password]] as const) {
      expect(row.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(row.passwordHash).not.toContain(password);
      expect(JSON.stringify(row)).not.toContain(password);
    }
    expect(rows[0]!.passwordHash.split('$')[4]).not.toBe(rows[1]!.passwordHash.split('$')[4]);
    expect(JSON.stringify(await sut.list(clientId))).not.toContain(created.password);
  });

  it(`allows at most ${MAX_SMPP_CREDENTIALS} live credentials a client; a revoked one makes room`, async () => {
    const made = await Promise.all(Array.from({ length: MAX_SMPP_CREDENTIALS + 2 }, () => sut.create(clientId, {}).catch((error: unknown) => error)));

    expect(made.filter((result) => (result as { code?: string }).code === 'conflict')).toHaveLength(2);
    const first = made.find((result) => 'password' in (result as object)) as { id: number };
    await sut.revoke(clientId, first.id);
    await expect(sut.create(clientId, {})).resolves.toMatchObject({ clientId });
    await expect(sut.create(clientId, {})).rejects.toMatchObject({ code: 'conflict', detail: expect.stringContaining(`at most ${MAX_SMPP_CREDENTIALS}`) });
  });

  it('lists a client’s credentials oldest first, revoked ones included, never another client’s', async () => {
    const first = await sut.create(clientId, {});
    const second = await sut.create(clientId, {});
    await sut.revoke(clientId, first.id);
    const otherClient = await clients.insert('other', 'Europe/Belgrade');
    await sut.create(otherClient, {});

    expect((await sut.list(clientId)).map((credential) => [credential.id, credential.revokedAt !== null])).toEqual([
      [first.id, true],
      [second.id, false],
    ]);
    await expect(sut.revoke(otherClient, second.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await sut.list(clientId))[1]!.revokedAt).toBeNull();
  });

  it('answers not_found for an unknown client', async () => {
    await expect(sut.create(2_000_000_000, {})).rejects.toMatchObject({ code: 'not_found' });
    await expect(sut.list(2_000_000_000)).rejects.toMatchObject({ code: 'not_found' });
    await expect(sut.revoke(clientId, 2_000_000_000)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a system_id or source address SMPP cannot carry', async () => {
    await expect(sut.create(clientId, { systemId: 'sixteen-chars-xx' })).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('system_id') });
    await expect(sut.create(clientId, { sourceAddresses: ['TwelveLetter'] })).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('source_addresses[0]') });
  });
});
