import { InvalidRequestError, type InboxPage } from '@smsq/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxDatabase } from '../database/inbox-database.js';
import { inbound, nextId, openInboxTestDatabase } from '../testing/inbox-harness.js';
import { MessagesService } from './messages.service.js';

describe(MessagesService.name, () => {
  let close: () => Promise<void>;
  let database: InboxDatabase;
  let sut: MessagesService;

  beforeAll(async () => {
    ({ database, messages: sut, close } = await openInboxTestDatabase('inbox_messages'));
  });

  afterAll(() => close());

  const rowsOfClient = (clientId: number) => database.message.findMany({ where: { clientId }, orderBy: { id: 'asc' } });

  describe('store', () => {
    it('stores the same batch synced twice once', async () => {
      const clientId = nextId();
      const batch = { messages: [inbound({ clientId }), inbound({ clientId }), inbound({ clientId })] };

      const first = await sut.store(batch);
      const second = await sut.store(batch);

      expect(first).toEqual({ stored: 3, duplicates: 0 });
      expect(second).toEqual({ stored: 0, duplicates: 3 });
      expect(await rowsOfClient(clientId)).toHaveLength(3);
    });

    it('counts a message repeated within one batch as a duplicate', async () => {
      const clientId = nextId();
      const reply = inbound({ clientId });

      const result = await sut.store({ messages: [reply, inbound({ clientId }), { ...reply }] });

      expect(result).toEqual({ stored: 2, duplicates: 1 });
      expect(await rowsOfClient(clientId)).toHaveLength(2);
    });

    it("knows a message by the phone's id for it, whatever else changed", async () => {
      const clientId = nextId();
      const phoneId = nextId();
      const reply = inbound({ clientId, phoneId, externalId: 'sms-1' });

      await sut.store({ messages: [reply] });
      const resynced = await sut.store({ messages: [{ ...reply, receivedAt: '2026-11-22T10:00:05.000Z' }] });

      expect(resynced).toEqual({ stored: 0, duplicates: 1 });
      expect(await rowsOfClient(clientId)).toMatchObject([{ externalId: 'sms-1', dedupKey: `ext:${phoneId}:sms-1` }]);
    });

    it('keeps two replies with the same text, sender and time when the phone gave them different ids', async () => {
      const clientId = nextId();
      const phoneId = nextId();
      const reply = inbound({ clientId, phoneId, message: 'OK' });

      const result = await sut.store({ messages: [{ ...reply, externalId: 'a' }, { ...reply, externalId: 'b' }] });

      expect(result).toEqual({ stored: 2, duplicates: 0 });
    });

    it('knows a message without an id by phone, sender, instant and text, whatever offset the time was written with', async () => {
      const clientId = nextId();
      const reply = inbound({ clientId, phoneId: nextId(), receivedAt: '2026-11-22T10:00:00Z' });

      await sut.store({ messages: [reply] });
      const resynced = await sut.store({ messages: [{ ...reply, receivedAt: '2026-11-22T11:00:00.000+01:00' }] });

      expect(resynced).toEqual({ stored: 0, duplicates: 1 });
    });

    it('stores the same text from the same sender at the same time on two phones as two messages', async () => {
      const clientId = nextId();
      const reply = inbound({ clientId, message: 'STOP' });

      const result = await sut.store({ messages: [{ ...reply, phoneId: nextId() }, { ...reply, phoneId: nextId() }] });

      expect(result).toEqual({ stored: 2, duplicates: 0 });
    });

    it('stores a reply whose owner is unknown, visible to an admin only', async () => {
      const message = `nobody's ${nextId()}`;

      await sut.store({ messages: [inbound({ message })] });

      expect((await sut.list({ page: 1, pageSize: 10, search: message })).items).toMatchObject([{ clientId: null, phoneId: null, message }]);
    });

    it('stores 10 identical batches arriving at once exactly once', async () => {
      const clientId = nextId();
      const batch = { messages: Array.from({ length: 20 }, () => inbound({ clientId })) };

      const results = await Promise.all(Array.from({ length: 10 }, () => sut.store(batch)));

      expect(results.reduce((sum, result) => sum + result.stored, 0)).toBe(20);
      expect(results.every((result) => result.stored + result.duplicates === 20)).toBe(true);
      expect(await rowsOfClient(clientId)).toHaveLength(20);
    });

    it('stores overlapping batches in different orders at once, each message once and without a deadlock', async () => {
      // Without one order of insertion, two batches that hold each other's next key deadlock; a few rounds make that near certain.
      for (let round = 0; round < 5; round += 1) {
        const clientId = nextId();
        const replies = Array.from({ length: 50 }, () => inbound({ clientId }));
        const batches = Array.from({ length: 10 }, () => ({ messages: shuffled(replies) }));

        const results = await Promise.all(batches.map((batch) => sut.store(batch)));

        expect(results.reduce((sum, result) => sum + result.stored, 0)).toBe(50);
        expect(await rowsOfClient(clientId)).toHaveLength(50);
      }
    });

    it('refuses a batch with a NUL in a text as invalid_request and stores none of it', async () => {
      const clientId = nextId();

      const attempt = sut.store({ messages: [inbound({ clientId }), inbound({ clientId, message: 'bad\u0000text' })] });

      await expect(attempt).rejects.toThrow(InvalidRequestError);
      await expect(attempt).rejects.toMatchObject({ code: 'invalid_request' });
      expect(await rowsOfClient(clientId)).toHaveLength(0);
    });

    it('keeps the text, the sender and the external id exactly, emoji and quotes included', async () => {
      const clientId = nextId();
      const message = "Da 👍 — it's \"fine\" \\ 100% _sure_";

      await sut.store({ messages: [inbound({ clientId, from: 'VIPBANK', message, externalId: 'ext 1' })] });

      expect((await sut.list({ clientId, page: 1, pageSize: 10 })).items).toMatchObject([{ from: 'VIPBANK', message }]);
    });
  });

  describe('list', () => {
    it('pages newest first, ties broken by the later stored, with the total', async () => {
      const clientId = nextId();
      await sut.store({
        messages: [
          inbound({ clientId, message: 'oldest', receivedAt: '2026-11-20T08:00:00Z' }),
          inbound({ clientId, message: 'newest', receivedAt: '2026-11-22T08:00:00Z' }),
          inbound({ clientId, message: 'middle', receivedAt: '2026-11-21T09:00:00+01:00' }),
        ],
      });
      await sut.store({ messages: [inbound({ clientId, message: 'middle, later stored', receivedAt: '2026-11-21T08:00:00Z' })] });

      const first = await sut.list({ clientId, page: 1, pageSize: 3 });
      const second = await sut.list({ clientId, page: 2, pageSize: 3 });
      const beyond = await sut.list({ clientId, page: 3, pageSize: 3 });

      expect(first.items.map((item) => item.message)).toEqual(['newest', 'middle, later stored', 'middle']);
      expect(second.items.map((item) => item.message)).toEqual(['oldest']);
      expect(beyond.items).toEqual([]);
      expect([first, second, beyond].map(({ total, page, pageSize }) => ({ total, page, pageSize }))).toEqual([
        { total: 4, page: 1, pageSize: 3 },
        { total: 4, page: 2, pageSize: 3 },
        { total: 4, page: 3, pageSize: 3 },
      ]);
    });

    it('shows each message with ISO instants and its owner', async () => {
      const clientId = nextId();
      const phoneId = nextId();
      const before = Date.now();
      await sut.store({ messages: [inbound({ clientId, phoneId, from: '+38164000001', message: 'hi', receivedAt: '2026-11-22T11:00:00.250+01:00' })] });

      const { items } = await sut.list({ clientId, page: 1, pageSize: 10 });

      expect(items).toEqual([{ id: expect.any(Number), clientId, phoneId, from: '+38164000001', message: 'hi', encrypted: false, receivedAt: '2026-11-22T10:00:00.250Z', storedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) }]);
      expect(Date.parse(items[0]!.storedAt)).toBeGreaterThanOrEqual(before - 1_000);
    });

    it("never shows a client another client's messages; an admin sees both", async () => {
      const [client1, client2] = [nextId(), nextId()];
      const tag = `isolation ${nextId()}`;
      await sut.store({ messages: [inbound({ clientId: client1, message: `${tag} one` }), inbound({ clientId: client2, message: `${tag} two` })] });

      const ofClient1 = await sut.list({ clientId: client1, page: 1, pageSize: 200 });
      const ofClient1Searching = await sut.list({ clientId: client1, page: 1, pageSize: 200, search: tag });
      const ofAdmin = await sut.list({ page: 1, pageSize: 200, search: tag });

      expect(ofClient1.items.map((item) => item.message)).toEqual([`${tag} one`]);
      expect(ofClient1.total).toBe(1);
      expect(ofClient1Searching.items.map((item) => item.clientId)).toEqual([client1]);
      expect(ofAdmin.items.map((item) => item.clientId).sort()).toEqual([client1, client2].sort());
    });

    it("finds by the sender's number or the text, case-insensitively", async () => {
      const clientId = nextId();
      await sut.store({
        messages: [
          inbound({ clientId, from: '+38164555111', message: 'Please call me' }),
          inbound({ clientId, from: '+38163999222', message: 'STOP sending' }),
          inbound({ clientId, from: 'MyBank', message: 'code 1234' }),
        ],
      });

      const search = async (text: string) => (await sut.list({ clientId, page: 1, pageSize: 10, search: text })).items.map((item) => item.from);

      expect(await search('555')).toEqual(['+38164555111']);
      expect(await search('stop')).toEqual(['+38163999222']);
      expect(await search('MYBANK')).toEqual(['MyBank']);
      expect(await search('CALL ME')).toEqual(['+38164555111']);
      expect(await search('nothing like it')).toEqual([]);
      expect((await sut.list({ clientId, page: 1, pageSize: 10, search: '' })).total).toBe(3);
    });

    it('takes % _ and \\ in a search literally', async () => {
      const clientId = nextId();
      await sut.store({
        messages: [
          inbound({ clientId, message: '100% sure' }),
          inbound({ clientId, message: '1000 sure' }),
          inbound({ clientId, message: 'a_b' }),
          inbound({ clientId, message: 'axb' }),
          inbound({ clientId, message: 'C:\\temp' }),
          inbound({ clientId, message: 'C:temp' }),
        ],
      });

      const search = async (text: string) => (await sut.list({ clientId, page: 1, pageSize: 10, search: text })).items.map((item) => item.message);

      expect(await search('0%')).toEqual(['100% sure']);
      expect(await search('%')).toEqual(['100% sure']);
      expect(await search('a_b')).toEqual(['a_b']);
      expect(await search('_')).toEqual(['a_b']);
      expect(await search(':\\')).toEqual(['C:\\temp']);
    });

    it('answers an empty page for a page far beyond the end or a client id no row can hold', async () => {
      const clientId = nextId();
      await sut.store({ messages: [inbound({ clientId })] });

      const farPage: InboxPage = await sut.list({ clientId, page: Number.MAX_SAFE_INTEGER, pageSize: 200 });
      const unsafePage = await sut.list({ clientId, page: 1e300, pageSize: 200 });
      const hugeClient = await sut.list({ clientId: 2_147_483_648, page: 1, pageSize: 10 });

      expect(farPage).toMatchObject({ items: [], total: 1 });
      expect(unsafePage).toMatchObject({ items: [], total: 1 });
      expect(hugeClient).toEqual({ items: [], total: 0, page: 1, pageSize: 10 });
    });

    it('refuses a search with a NUL as invalid_request', async () => {
      await expect(sut.list({ page: 1, pageSize: 10, search: 'a\u0000' })).rejects.toMatchObject({ code: 'invalid_request' });
    });
  });

  describe('conversations', () => {
    it("lists one number's replies newest first before a time, counts those after each thread's read mark, and finds senders by text", async () => {
      const clientId = nextId();
      const at = (minute: number) => `2026-11-22T10:0${minute}:00.000Z`;
      await sut.store({
        messages: [
          inbound({ clientId, from: '+381641110001', message: 'first', receivedAt: at(1) }),
          inbound({ clientId, from: '+381641110001', message: 'Your CODE please', receivedAt: at(2) }),
          inbound({ clientId, from: '+381641110001', message: 'third', receivedAt: at(3) }),
          inbound({ clientId, from: '+381641110002', message: 'other number', receivedAt: at(4) }),
          inbound({ clientId: nextId(), from: '+381641110001', message: 'another client', receivedAt: at(5) }),
        ],
      });

      expect((await sut.from({ clientId, from: '+381641110001', limit: 10 })).map((reply) => reply.message)).toEqual(['third', 'Your CODE please', 'first']);
      expect((await sut.from({ clientId, from: '+381641110001', limit: 10, before: at(3) })).map((reply) => reply.message)).toEqual(['Your CODE please', 'first']);
      expect((await sut.from({ clientId, from: '+381641110001', limit: 1 })).map((reply) => reply.message)).toEqual(['third']);

      expect(await sut.unread({ clientId, threads: [{ from: '+381641110001', since: at(1) }, { from: '+381641110002', since: null }, { from: '+381641119999', since: null }] })).toEqual({ '+381641110001': 2, '+381641110002': 1 });
      expect(await sut.unread({ clientId, threads: [{ from: '+381641110001', since: at(3) }] })).toEqual({});

      expect(await sut.searchSenders({ clientId, text: 'code', limit: 10 })).toEqual(['+381641110001']);
      expect(await sut.searchSenders({ clientId, text: 'number', limit: 10 })).toEqual(['+381641110002']);
      expect(await sut.searchSenders({ clientId, text: '%', limit: 10 })).toEqual([]);
    });
  });

  describe('after', () => {
    it("reads a client's replies after a cursor in id order, and holds back those a reply still being stored could come before", async () => {
      const clientId = nextId();
      await sut.store({ messages: [inbound({ clientId, message: 'first' })] });
      // A store that has begun and not committed: its reply takes the next id, but nobody sees it yet.
      const stalled = await database.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<Array<{ id: number }>>`
          INSERT INTO "inbox"."messages" (client_id, sender, body, received_at, dedup_key) VALUES (${clientId}, '+38164123456', 'stalled', now(), ${`stalled-${clientId}`}) RETURNING id`;
        await sut.store({ messages: [inbound({ clientId, message: 'later' })] });
        await new Promise((resolve) => setTimeout(resolve, 2_200));
        const whileStalled = await sut.after({ clientId, afterId: 0, limit: 10 });
        return { id: row!.id, whileStalled };
      });
      // Only what was stored before the stalled store began: the later reply waits for it.
      expect(stalled.whileStalled.map((reply) => reply.message)).toEqual(['first']);
      const after = await sut.after({ clientId, afterId: 0, limit: 10 });
      expect(after.map((reply) => reply.message)).toEqual(['first', 'stalled', 'later']);
      expect(after[1]!.id).toBe(stalled.id);
    }, 15_000);
  });
});

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
