import { Injectable } from '@nestjs/common';
import {
  NotFoundError,
  type ConversationListQuery,
  type ConversationPage,
  type ConversationReadCommand,
  type ConversationSearchQuery,
  type ConversationTasksQuery,
  type ConversationView,
  type ReplyReceivedCommand,
  type TaskView,
} from '@smsq/contracts';
import { containsPattern } from '@smsq/persistence';
import { pageCursorOf, parsePageCursor } from '../database/page-cursor.js';
import { isStoredId } from '../database/stored-id.js';
import { toTaskView } from '../tasks/task-view.js';
import { ConversationsRepository } from './conversations.repository.js';

/**
 * The dashboard's Conversations: one thread per client and number, newest first. Dispatch keeps
 * the threads (each task touches its own as it is stored, each reply as inbox relays it) and the
 * tasks; inbox keeps the replies.
 */
@Injectable()
export class ConversationsService {
  constructor(private readonly conversations: ConversationsRepository) {}

  async list(query: ConversationListQuery): Promise<ConversationPage> {
    const after = query.cursor === undefined ? undefined : parsePageCursor(query.cursor);
    if (!isStoredId(query.clientId) || query.numbers?.length === 0) return { items: [], nextCursor: null };
    const items = await this.conversations.page(query.clientId, query.limit + 1, after, query.search, query.numbers);
    const page = items.slice(0, query.limit);
    const last = page.at(-1);
    return { items: page, nextCursor: items.length > query.limit && last ? pageCursorOf(last.lastAt, last.number) : null };
  }

  async tasks(query: ConversationTasksQuery): Promise<TaskView[]> {
    const rows = await this.conversations.tasksTo(query.clientId, query.number, query.before ? new Date(query.before) : undefined, query.limit);
    return rows.map(toTaskView);
  }

  async read(command: ConversationReadCommand): Promise<ConversationView> {
    const read = await this.conversations.markRead(command.clientId, command.number);
    if (!read) throw new NotFoundError('conversation');
    return read;
  }

  search(query: ConversationSearchQuery): Promise<string[]> {
    return this.conversations.numbersWithText(query.clientId, containsPattern(query.text), query.limit);
  }

  /** A reply inbox stored: its thread moves up, and remembers the phone it came through. */
  async replyReceived(command: ReplyReceivedCommand): Promise<void> {
    await this.conversations.touchIncoming(command.clientId, command.from, command.message, command.encrypted === true, new Date(command.receivedAt), command.phoneId ?? null);
  }
}
