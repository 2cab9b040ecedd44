import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { PhonesService } from './phones.service.js';

describe(`${PhonesService.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  function ownPhonesOf(clientId: number): Promise<number> {
    return dispatch.db.phone.count({ where: { clientId, kind: 'own' } });
  }

  it('keeps to the phone limit under concurrent registrations', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => dispatch.phones.register({ clientId: 1, name: `phone ${i}`, deviceId: `device-${i}`, phoneLimit: 2 })),
    );

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    expect(
      outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as { code?: string }).code] : [])),
    ).toEqual(Array(8).fill('phone_limit_reached'));
    expect(await ownPhonesOf(1)).toBe(2);
  });

  it('pairs one phone for one device however many times it registers at once', async () => {
    const registered = await Promise.all(
      Array.from({ length: 10 }, () => dispatch.phones.register({ clientId: 2, name: 'pixel', deviceId: 'same-device', phoneLimit: 5 })),
    );

    expect(new Set(registered.map(({ phone }) => phone.id)).size).toBe(1);
    expect(registered.filter(({ created }) => created)).toHaveLength(1);
    expect(await ownPhonesOf(2)).toBe(1);
  });

  it('disables an own phone but never a gateway through a phone command', async () => {
    const { phone } = await dispatch.phones.register({ clientId: 3, name: 'pixel', phoneLimit: 2 });
    const [gateway] = await dispatch.db.$queryRaw<{ id: number }[]>`
      INSERT INTO "dispatch"."phones" (kind, name, url) VALUES ('gateway', 'gw', 'http://gw.local') RETURNING id`;

    await expect(dispatch.phones.setActive({ phoneId: phone.id, kind: 'own', active: false })).resolves.toEqual({ ok: true });
    await expect(dispatch.phones.setActive({ phoneId: gateway!.id, kind: 'own', active: false })).rejects.toMatchObject({ code: 'not_found' });

    await expect(dispatch.phones.get({ phoneId: phone.id })).resolves.toMatchObject({ active: false });
    await expect(dispatch.phones.get({ phoneId: gateway!.id })).resolves.toMatchObject({ active: true, kind: 'gateway' });
  });
});
