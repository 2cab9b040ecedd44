import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { PhoneHealthService } from './phone-health.service.js';

describe(`${PhoneHealthService.name} on Postgres`, () => {
  let database: TestDatabase;
  let profileA: DispatchUnderTest;
  let profileB: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    profileA = await dispatchUnderTest(database.url, 'A');
    profileB = await dispatchUnderTest(database.url, 'B');
  });

  afterAll(async () => {
    await profileA?.close();
    await profileB?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(profileA.db);
  });

  it('stores a phone’s report and shows it, with its last poll, in the client’s phone list', async () => {
    const { phone } = await profileA.phones.register({ clientId: 1, name: 'pixel', phoneLimit: 2 });
    const before = Date.now();

    await expect(profileA.health.record({ phoneId: phone.id, batteryPercent: 100, charging: false, connection: 'LTE ü 4G' })).resolves.toEqual({ ok: true });
    await profileA.claims.claim({ tokenId: 5, phoneId: phone.id });

    const [listed] = await profileA.phones.list({ clientId: 1 });
    expect(listed!.health).toMatchObject({ batteryPercent: 100, charging: false, connection: 'LTE ü 4G' });
    expect(Date.parse(listed!.health!.reportedAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(listed!.lastSeenAt!)).toBeGreaterThanOrEqual(before - 1_000);
    await expect(profileA.phones.get({ phoneId: phone.id })).resolves.toMatchObject({ health: listed!.health, lastSeenAt: listed!.lastSeenAt });
  });

  it('keeps a field left out as unknown rather than as it was', async () => {
    const { phone } = await profileA.phones.register({ clientId: 1, name: 'pixel', phoneLimit: 2 });
    await profileA.health.record({ phoneId: phone.id, batteryPercent: 80, charging: true, connection: 'wifi' });

    await profileA.health.record({ phoneId: phone.id, connection: 'none' });

    expect(await profileA.db.phone.findUniqueOrThrow({ where: { id: phone.id } })).toMatchObject({ batteryPercent: null, charging: null, connection: 'none' });
  });

  it('records a gateway’s report in Profile B, never on a phone of the other kind', async () => {
    const gateway = await profileB.phones.createGateway({ name: 'gw', url: 'http://gw.local' });
    const { phone } = await profileA.phones.register({ clientId: 1, name: 'pixel', phoneLimit: 2 });

    await expect(profileB.health.record({ phoneId: gateway.id, batteryPercent: 12 })).resolves.toEqual({ ok: true });
    await expect(profileB.health.record({ phoneId: phone.id, batteryPercent: 12 })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(profileA.health.record({ phoneId: gateway.id, batteryPercent: 12 })).rejects.toMatchObject({ code: 'unauthorized' });

    const [listedGateway] = await profileB.phones.list({ kind: 'gateway' });
    expect(listedGateway!.health).toMatchObject({ batteryPercent: 12, charging: null, connection: null });
    await expect(profileA.phones.get({ phoneId: phone.id })).resolves.toMatchObject({ health: null });
  });
});
