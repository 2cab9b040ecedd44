import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { insertTask, truncateDispatch } from '../testing/task-rows.js';
import { ReplyOwnerService } from './reply-owner.service.js';

const NUMBER = '+381601112223';

function minutesAgo(minutes: number): Date {
  return new Date(Date.now() - minutes * 60_000);
}

describe(`${ReplyOwnerService.name} on Postgres`, () => {
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

  describe('Profile A', () => {
    it('gives a reply to the client owning the phone that received it, whoever was written to', async () => {
      const { phone } = await profileA.phones.register({ clientId: 3, name: 'pixel', phoneLimit: 2 });

      await expect(profileA.replies.ownerOf({ phoneId: phone.id, from: NUMBER })).resolves.toEqual({ clientId: 3, phoneId: phone.id });
    });

    it('finds no owner for an unknown phone, or without a phone', async () => {
      await expect(profileA.replies.ownerOf({ phoneId: 4242, from: NUMBER })).resolves.toEqual({ clientId: null, phoneId: 4242 });
      await expect(profileA.replies.ownerOf({ phoneId: 2 ** 40, from: NUMBER })).resolves.toEqual({ clientId: null, phoneId: 2 ** 40 });
      await expect(profileA.replies.ownerOf({ from: NUMBER })).resolves.toEqual({ clientId: null, phoneId: null });
    });
  });

  describe('Profile B', () => {
    let first: number;
    let second: number;

    beforeEach(async () => {
      first = (await profileB.phones.createGateway({ name: 'g1', url: 'http://g1.local' })).id;
      second = (await profileB.phones.createGateway({ name: 'g2', url: 'http://g2.local' })).id;
    });

    async function wentOut(row: Parameters<typeof insertTask>[1], status: 'claimed' | 'sent' = 'sent'): Promise<void> {
      const task = await insertTask(profileB.db, row);
      await profileB.db.task.update({ where: { id: task.id }, data: { status, attempts: 1 } });
    }

    it('gives a reply to the client whose task last went from that gateway to that number', async () => {
      await wentOut({ phoneId: first, clientId: 7, recipient: NUMBER, createdAt: minutesAgo(30) });
      await wentOut({ phoneId: first, clientId: 8, recipient: NUMBER, createdAt: minutesAgo(10) });
      await wentOut({ phoneId: second, clientId: 9, recipient: NUMBER, createdAt: minutesAgo(5) });
      await wentOut({ phoneId: first, clientId: 10, recipient: '+381609999999', createdAt: minutesAgo(1) });

      await expect(profileB.replies.ownerOf({ phoneId: first, from: NUMBER })).resolves.toEqual({ clientId: 8, phoneId: first });
    });

    it('looks across every gateway when the token is bound to none, and names the task’s gateway', async () => {
      await wentOut({ phoneId: first, clientId: 7, recipient: NUMBER, createdAt: minutesAgo(30) });
      await wentOut({ phoneId: second, clientId: 9, recipient: NUMBER, createdAt: minutesAgo(5) }, 'claimed');

      await expect(profileB.replies.ownerOf({ from: NUMBER })).resolves.toEqual({ clientId: 9, phoneId: second });
    });

    it('prefers a task that went out over a newer one still queued, and falls back on a queued one', async () => {
      await wentOut({ phoneId: first, clientId: 7, recipient: NUMBER, createdAt: minutesAgo(30) });
      await insertTask(profileB.db, { phoneId: first, clientId: 8, recipient: NUMBER, createdAt: minutesAgo(1) });
      await insertTask(profileB.db, { phoneId: second, clientId: 9, recipient: NUMBER, createdAt: minutesAgo(1) });

      await expect(profileB.replies.ownerOf({ phoneId: first, from: NUMBER })).resolves.toEqual({ clientId: 7, phoneId: first });
      await expect(profileB.replies.ownerOf({ phoneId: second, from: NUMBER })).resolves.toEqual({ clientId: 9, phoneId: second });
    });

    it('finds no owner when nothing was ever sent to that number from there', async () => {
      await wentOut({ phoneId: first, clientId: 7, recipient: NUMBER });

      await expect(profileB.replies.ownerOf({ phoneId: second, from: NUMBER })).resolves.toEqual({ clientId: null, phoneId: second });
      await expect(profileB.replies.ownerOf({ from: '+381600000000' })).resolves.toEqual({ clientId: null, phoneId: null });
      await expect(profileB.replies.ownerOf({ phoneId: 2 ** 40, from: NUMBER })).resolves.toEqual({ clientId: null, phoneId: 2 ** 40 });
    });
  });
});
