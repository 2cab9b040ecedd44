import { Injectable, Logger } from '@nestjs/common';
import {
  InvalidRequestError,
  type InboxMessageView,
  type InboxPage,
  type MessagesAfterQuery,
  type MessagesFromQuery,
  type MessagesListQuery,
  type MessagesSearchSendersQuery,
  type MessagesStoreCommand,
  type MessagesStored,
  type MessagesUnreadQuery,
} from '@smsq/contracts';
import { InboxConfig } from '../config/inbox-config.js';
import { InboxDatabase } from '../database/inbox-database.js';
import { isStoredId } from '../database/stored-id.js';
import { toInboxMessageView } from './inbox-message-view.js';
import { MessagesRepository } from './messages.repository.js';
import { newMessageOf } from './new-message.js';
import { containsPattern } from '@smsq/persistence';

/** Replies as the gateway syncs them: stored once each, listed newest first per client. */
@Injectable()
export class MessagesService {
  private readonly logger = new Logger(MessagesService.name);
  /** SMSQ_TASK_RETENTION_DAYS in milliseconds; undefined: replies are kept for ever. */
  private readonly retentionMs: number | undefined;

  constructor(
    private readonly database: InboxDatabase,
    private readonly messages: MessagesRepository,
    config: InboxConfig,
  ) {
    this.retentionMs = config.messageRetentionDays === undefined ? undefined : config.messageRetentionDays * 86_400_000;
  }

  /**
   * Stores what is new; a message already stored, or repeated within the batch, counts as a
   * duplicate, and so does one received before the retention period: it was stored and pruned
   * already (or would be at once), and storing it again would announce it to the client twice.
   */
  async store(command: MessagesStoreCommand): Promise<MessagesStored> {
    const keptSince = this.retentionMs === undefined ? undefined : Date.now() - this.retentionMs;
    const rows = command.messages
      .map((message, index) => newMessageOf(message, `messages[${index}]`))
      .filter((row) => keptSince === undefined || row.receivedAt.getTime() >= keptSince);
    // One order for every batch: concurrent overlapping syncs then wait on each other's keys in the same order, never in a cycle.
    rows.sort((a, b) => (a.dedupKey < b.dedupKey ? -1 : a.dedupKey > b.dedupKey ? 1 : 0));
    const stored = rows.length === 0 ? 0 : await this.messages.insertNew(this.database, rows);
    const duplicates = command.messages.length - stored;
    this.logger.log(`stored ${stored} inbound message(s), ${duplicates} duplicate(s)`);
    return { stored, duplicates };
  }

  /** A conversation's replies: one client's from one number, newest first, before a time. */
  async from(query: MessagesFromQuery): Promise<InboxMessageView[]> {
    const rows = await this.messages.fromSender(this.database, query.clientId, query.from, query.before ? new Date(query.before) : undefined, query.limit);
    return rows.map(toInboxMessageView);
  }

  async after(query: MessagesAfterQuery): Promise<InboxMessageView[]> {
    const rows = await this.messages.storedAfter(this.database, query.clientId, query.afterId, query.receivedSince ? new Date(query.receivedSince) : undefined, query.limit);
    return rows.map(toInboxMessageView);
  }

  /** Each thread's replies received after its read mark. */
  unread(query: MessagesUnreadQuery): Promise<Record<string, number>> {
    return this.messages.unread(this.database, query.clientId, query.threads.map((thread) => ({ from: thread.from, since: thread.since ? new Date(thread.since) : null })));
  }

  searchSenders(query: MessagesSearchSendersQuery): Promise<string[]> {
    return this.messages.sendersWithText(this.database, query.clientId, containsPattern(query.text), query.limit);
  }

  async list(query: MessagesListQuery): Promise<InboxPage> {
    const { page, pageSize } = query;
    if (query.search?.includes('\u0000')) throw new InvalidRequestError('search must not contain a NUL character');
    // A client id no row can hold names nobody, so nobody's messages.
    if (query.clientId !== undefined && !isStoredId(query.clientId)) return { items: [], total: 0, page, pageSize };

    const filter = { clientId: query.clientId, pattern: query.search ? containsPattern(query.search) : undefined };
    const offset = Number.isSafeInteger(page) ? BigInt(page - 1) * BigInt(pageSize) : undefined;
    return this.database.snapshot(async (tx) => {
      const total = await this.messages.count(tx, filter);
      const rows = offset === undefined || offset >= BigInt(total) ? [] : await this.messages.page(tx, filter, offset, pageSize);
      return { items: rows.map(toInboxMessageView), total, page, pageSize };
    });
  }
}
