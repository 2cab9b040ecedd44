import { DomainError, Patterns, UnavailableError, type ReplyReceivedCommand } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackoffSchedule } from '@smsq/testing';
import type { InboxDatabase } from '../database/inbox-database.js';
import type { MessagesService } from '../messages/messages.service.js';
import { inbound, nextId, openInboxTestDatabase, testInboxConfig } from '../testing/inbox-harness.js';
import { OutboxRelay } from './outbox-relay.js';

/** Dispatch as the relay meets it: it records what it takes, refuses the messages it is told to, or is down. */
class DispatchStandIn {
  readonly taken: ReplyReceivedCommand[] = [];
  /** When each refused event was asked for. */
  readonly refusals: number[] = [];
  refusedText: string | null = null;
  /** A message dispatch takes only after this long, as under load. */
  slowText: string | null = null;
  down = false;

  async send(pattern: string, command: ReplyReceivedCommand): Promise<object> {
    if (this.down) throw new UnavailableError('the dispatch service did not answer; retry later');
    if (pattern !== Patterns.dispatch.webhookReplyReceived) throw new DomainError('not_found', pattern);
    if (command.message === this.refusedText) {
      this.refusals.push(Date.now());
      throw new DomainError('invalid_request', 'refused');
    }
    if (command.message === this.slowText) await new Promise((resolve) => setTimeout(resolve, 150));
    this.taken.push(command);
    return { ok: true };
  }
}

describe(`${OutboxRelay.name} on Postgres`, () => {
  let close: () => Promise<void>;
  let database: InboxDatabase;
  let messages: MessagesService;

  beforeAll(async () => {
    ({ database, messages, close } = await openInboxTestDatabase('inbox_outbox'));
  });

  afterAll(() => close());

  function relayTo(dispatch: DispatchStandIn): OutboxRelay {
    return new OutboxRelay(database, dispatch as unknown as ServiceClient, testInboxConfig());
  }

  it('writes one event per new reply of a client with the reply, none for a duplicate or a reply without a client, and relays each until dispatch takes it', async () => {
    const clientId = nextId();
    const reply = inbound({ clientId, phoneId: 4, from: '+381641234567', message: 'yes' });
    await messages.store({ messages: [reply, inbound({})] });
    await messages.store({ messages: [reply] });
    const dispatch = new DispatchStandIn();
    dispatch.down = true;

    expect(await relayTo(dispatch).relayOnce()).toEqual({ delivered: 0, failed: 1, interrupted: true });
    dispatch.down = false;
    expect(await relayTo(dispatch).relayOnce()).toEqual({ delivered: 1, failed: 0, interrupted: false });
    expect(await relayTo(dispatch).relayOnce()).toEqual({ delivered: 0, failed: 0, interrupted: false });

    const stored = await database.message.findFirstOrThrow({ where: { clientId } });
    expect(dispatch.taken).toEqual([
      {
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        clientId,
        phoneId: 4,
        messageId: stored.id,
        from: '+381641234567',
        message: 'yes',
        receivedAt: stored.receivedAt.toISOString(),
        storedAt: stored.storedAt.toISOString(),
      },
    ]);
    expect(await database.outboxEvent.findFirstOrThrow()).toMatchObject({ publishedAt: expect.any(Date), attempts: 2, lastError: null });
  });

  it('backs an event dispatch keeps refusing off on its own, while the replies stored after it are relayed promptly and in order', async () => {
    const clientId = nextId();
    const store = (message: string) => messages.store({ messages: [inbound({ clientId, phoneId: 4, message })] });
    await store('refused');
    await store('first after');
    await store('second after');
    const dispatch = new DispatchStandIn();
    dispatch.refusedText = 'refused';
    const relay = relayTo(dispatch).withBackoff({ baseMs: 100, maxMs: 400 });
    const takenTexts = () => dispatch.taken.filter((command) => command.clientId === clientId).map((command) => command.message);

    expect(await relay.relayOnce()).toEqual({ delivered: 2, failed: 1, interrupted: false });
    // Rounds as the relay's job runs them, only closer together; a reply stored meanwhile goes in the round after.
    // At least a second and at least 20 rounds: a slow machine runs fewer rounds a second.
    const started = Date.now();
    let rounds = 1;
    for (; Date.now() < started + 1_000 || rounds <= 20; rounds++) {
      if (rounds === 10) {
        await store('third after');
        await relay.relayOnce();
        expect(takenTexts()).toContain('third after');
      } else await relay.relayOnce();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sinceFirstRefusal = Date.now() - dispatch.refusals[0]!;

    expect(takenTexts()).toEqual(['first after', 'second after', 'third after']);
    // Every round would have asked again; the back-off (0.1 s, 0.2 s, 0.4 s, then 0.4 s, each ±20 %) asks a handful of times.
    const backoff = new BackoffSchedule(100, 400);
    expect(backoff.tooShortWaits(dispatch.refusals)).toEqual([]);
    expect(dispatch.refusals.length).toBeGreaterThanOrEqual(3);
    expect(dispatch.refusals.length).toBeLessThanOrEqual(backoff.mostAttemptsWithin(sinceFirstRefusal));
    // Asked in every round it would be refused once per call (the one before the loop, one a round,
    // one more in round 10): the back-off itself is the two checks above, which hold however long a round takes.
    expect(dispatch.refusals.length).toBeLessThan(rounds + 1);
    const refused = await database.outboxEvent.findFirstOrThrow({ where: { publishedAt: null } });
    expect(refused).toMatchObject({ payload: expect.objectContaining({ clientId, message: 'refused' }), attempts: dispatch.refusals.length, lastError: expect.stringContaining('refused') });
    expect(refused.nextAttemptAt.getTime()).toBeGreaterThan(dispatch.refusals.at(-1)! + 0.8 * 100);
    // Out of the way of the next test.
    await database.outboxEvent.update({ where: { id: refused.id }, data: { publishedAt: new Date() } });
  });

  it('asks a refused event once a round, even when the round outlasts its back-off', async () => {
    const clientId = nextId();
    const store = (message: string) => messages.store({ messages: [inbound({ clientId, phoneId: 4, message })] });
    await store('refused, once a round');
    await store('slow');
    const dispatch = new DispatchStandIn();
    dispatch.refusedText = 'refused, once a round';
    dispatch.slowText = 'slow';
    const relay = relayTo(dispatch).withBackoff({ baseMs: 10, maxMs: 10 });

    expect(await relay.relayOnce()).toEqual({ delivered: 1, failed: 1, interrupted: false });
    expect(dispatch.refusals).toHaveLength(1);
    // Due again by now: the next round asks it.
    expect(await relay.relayOnce()).toEqual({ delivered: 0, failed: 1, interrupted: false });
    const refused = await database.outboxEvent.findFirstOrThrow({ where: { publishedAt: null } });
    await database.outboxEvent.update({ where: { id: refused.id }, data: { publishedAt: new Date() } });
  });

  it('leaves an event its turn while dispatch is down, and relays in order once it answers', async () => {
    const clientId = nextId();
    await messages.store({ messages: [inbound({ clientId, message: 'first' })] });
    await messages.store({ messages: [inbound({ clientId, message: 'second' })] });
    const dispatch = new DispatchStandIn();
    dispatch.down = true;
    const relay = relayTo(dispatch).withBackoff({ baseMs: 60_000, maxMs: 60_000 });

    for (let round = 0; round < 3; round++) expect(await relay.relayOnce()).toEqual({ delivered: 0, failed: 1, interrupted: true });
    const [waiting, untouched] = await database.outboxEvent.findMany({ where: { publishedAt: null }, orderBy: { id: 'asc' } });
    expect(waiting).toMatchObject({ attempts: 3, payload: expect.objectContaining({ message: 'first' }) });
    expect(untouched).toMatchObject({ attempts: 0, payload: expect.objectContaining({ message: 'second' }) });
    // Not pushed out as a refused event would be (by a minute here): the outage was dispatch's, not the event's.
    expect(waiting!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());

    dispatch.down = false;
    expect(await relay.relayOnce()).toEqual({ delivered: 2, failed: 0, interrupted: false });
    expect(dispatch.taken.map((command) => command.message)).toEqual(['first', 'second']);
  });
});
