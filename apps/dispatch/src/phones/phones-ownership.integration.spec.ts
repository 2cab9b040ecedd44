import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { insertTask } from '../testing/task-rows.js';
import { PhonesService } from './phones.service.js';

describe(`${PhonesService.name}: lists and changes, each client only its own`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let pixel: number;
  let nokia: number;
  let ofClient2: number;
  let gateway: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    pixel = (await dispatch.phones.register({ clientId: 1, name: 'pixel', phoneLimit: 3 })).phone.id;
    nokia = (await dispatch.phones.register({ clientId: 1, name: 'nokia', phoneLimit: 3 })).phone.id;
    ofClient2 = (await dispatch.phones.register({ clientId: 2, name: 'theirs', phoneLimit: 3 })).phone.id;
    const [row] = await dispatch.db.$queryRaw<{ id: number }[]>`
      INSERT INTO "dispatch"."phones" (kind, client_id, name, url) VALUES ('gateway', 1, 'vip gw', 'http://gw.local') RETURNING id`;
    gateway = row!.id;
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  async function sent(phoneId: number, clientId: number, sentAt: Date): Promise<void> {
    const task = await insertTask(dispatch.db, { phoneId, clientId });
    await dispatch.db.task.update({ where: { id: task.id }, data: { status: 'sent', sentAt, attempts: 1 } });
  }

  describe('list', () => {
    it('shows a client only its own phones, lowest id first, with when they were seen and assigned and what they sent today', async () => {
      const startOfUtcDay = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z');
      await sent(pixel, 1, new Date());
      await sent(pixel, 1, startOfUtcDay);
      await sent(pixel, 1, new Date(startOfUtcDay.getTime() - 1));
      await sent(ofClient2, 2, new Date());
      await insertTask(dispatch.db, { phoneId: nokia, clientId: 1 });
      const seenAt = new Date('2026-11-22T09:00:00.123Z');
      const assignedAt = new Date('2026-11-22T08:00:00.456Z');
      await dispatch.db.phone.update({ where: { id: pixel }, data: { lastSeenAt: seenAt, lastAssignedAt: assignedAt } });

      const phones = await dispatch.phones.list({ clientId: 1, kind: 'own' });

      expect(phones.map((phone) => phone.id)).toEqual([pixel, nokia]);
      expect(phones[0]).toMatchObject({
        id: pixel,
        kind: 'own',
        clientId: 1,
        name: 'pixel',
        active: true,
        lastSeenAt: seenAt.toISOString(),
        lastAssignedAt: assignedAt.toISOString(),
        sentToday: 2,
      });
      expect(phones[1]).toMatchObject({ id: nokia, lastSeenAt: null, lastAssignedAt: null, sentToday: 0 });
      await expect(dispatch.phones.list({ clientId: 2 })).resolves.toEqual([expect.objectContaining({ id: ofClient2, sentToday: 1 })]);
    });

    it('scopes by kind, and lists everything for an admin', async () => {
      expect((await dispatch.phones.list({ clientId: 1 })).map((phone) => phone.id)).toEqual([pixel, nokia, gateway]);
      expect((await dispatch.phones.list({ clientId: 1, kind: 'gateway' })).map((phone) => phone.id)).toEqual([gateway]);
      expect((await dispatch.phones.list({})).map((phone) => phone.id)).toEqual([pixel, nokia, ofClient2, gateway]);
      expect((await dispatch.phones.list({ kind: 'own' })).map((phone) => phone.id)).toEqual([pixel, nokia, ofClient2]);
      await expect(dispatch.phones.list({ clientId: 99 })).resolves.toEqual([]);
      await expect(dispatch.phones.list({ clientId: 2 ** 40 })).resolves.toEqual([]);
    });
  });

  describe('rename', () => {
    it('renames the client’s own phone', async () => {
      await expect(dispatch.phones.rename({ phoneId: nokia, clientId: 1, name: '  kitchen  ' })).resolves.toMatchObject({ id: nokia, name: 'kitchen' });
      await expect(dispatch.phones.get({ phoneId: nokia })).resolves.toMatchObject({ name: 'kitchen' });
    });

    it('does not rename another client’s phone, as if it did not exist', async () => {
      await expect(dispatch.phones.rename({ phoneId: ofClient2, clientId: 1, name: 'mine now' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(dispatch.phones.get({ phoneId: ofClient2 })).resolves.toMatchObject({ name: 'theirs' });
    });

    it('lets an admin rename any phone or gateway', async () => {
      await expect(dispatch.phones.rename({ phoneId: gateway, name: 'vip gateway' })).resolves.toMatchObject({ kind: 'gateway', name: 'vip gateway' });
    });

    it('refuses a blank name and does not find an unknown phone', async () => {
      await expect(dispatch.phones.rename({ phoneId: pixel, clientId: 1, name: '   ' })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(dispatch.phones.rename({ phoneId: 9_999, name: 'x' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(dispatch.phones.rename({ phoneId: 2 ** 40, name: 'x' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(dispatch.phones.rename({ phoneId: pixel, clientId: 2 ** 40, name: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('set active', () => {
    it('lets a client disable and enable its own phone', async () => {
      await expect(dispatch.phones.setActive({ phoneId: pixel, kind: 'own', active: false, clientId: 1 })).resolves.toEqual({ ok: true });
      await expect(dispatch.phones.get({ phoneId: pixel })).resolves.toMatchObject({ active: false });
      await expect(dispatch.phones.setActive({ phoneId: pixel, kind: 'own', active: true, clientId: 1 })).resolves.toEqual({ ok: true });
      await expect(dispatch.phones.get({ phoneId: pixel })).resolves.toMatchObject({ active: true });
    });

    it('does not let a client disable another client’s phone', async () => {
      await expect(dispatch.phones.setActive({ phoneId: ofClient2, kind: 'own', active: false, clientId: 1 })).rejects.toMatchObject({ code: 'not_found' });
      await expect(dispatch.phones.get({ phoneId: ofClient2 })).resolves.toMatchObject({ active: true });
    });

    it('still lets an admin (no client) disable any phone', async () => {
      await expect(dispatch.phones.setActive({ phoneId: ofClient2, kind: 'own', active: false })).resolves.toEqual({ ok: true });
      await expect(dispatch.phones.get({ phoneId: ofClient2 })).resolves.toMatchObject({ active: false });
    });
  });
});
