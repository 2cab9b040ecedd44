import { DomainError, Patterns, UnavailableError, type ReplyReceivedCommand } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxDatabase } from '../database/inbox-database.js';
import type { MessagesService } from '../messages/messages.service.js';
import { inbound, nextId, openInboxTestDatabase, testInboxConfig } from '../testing/inbox-harness.js';
import { OutboxRelay } from './outbox-relay.js';

/** Dispatch as the relay meets it: it records what it takes, or is down. */
class DispatchStandIn {
  readonly taken: ReplyReceivedCommand[] = [];
  down = false;

  async send(pattern: string, command: ReplyReceivedCommand): Promise<object> {
    if (this.down) throw new UnavailableError('the dispatch service did not answer; retry later');
    if (pattern !== Patterns.dispatch.webhookReplyReceived) throw new DomainError('not_found', pattern);
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
});
