import { Inject, Injectable } from '@nestjs/common';
import {
  InvalidRequestError,
  NotFoundError,
  Patterns,
  type ConversationListQuery,
  type ConversationPage as DispatchConversationPage,
  type ConversationSearchQuery,
  type ConversationTasksQuery,
  type ConversationView,
  type InboxMessageView,
  type MessagesFromQuery,
  type MessagesSearchSendersQuery,
  type MessagesUnreadQuery,
  type OptOutCheckQuery,
  type PhoneDetails,
  type PhoneListQuery,
  type TaskView,
} from '@smsq/contracts';
import type { ConversationPage, ConversationReply, ConversationThread, SendResult, ThreadMessage } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import { SendService } from './send.service.js';

const THREADS_PER_PAGE = 30;
const MESSAGES_PER_PAGE = 50;
/** A text search looks at this many matching numbers, the most recent first. */
const SEARCH_HITS = 1_000;
const NUMBER_SEARCH = /^\+?[\d\s-]{1,20}$/;

/**
 * Conversations: dispatch keeps the threads and the tasks, inbox the replies; a thread's page is
 * the two merged by time.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly directory: ClientDirectory,
    private readonly sending: SendService,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('inbox')) private readonly inbox: ServiceClient,
  ) {}

  async list(clientId: number, options: { search?: string; cursor?: string }): Promise<ConversationPage> {
    const query: ConversationListQuery = { clientId, limit: THREADS_PER_PAGE, ...(options.cursor ? { cursor: options.cursor } : {}) };
    if (options.search && NUMBER_SEARCH.test(options.search)) query.search = options.search.replace(/[\s-]/g, '');
    else if (options.search) query.numbers = await this.numbersWithText(clientId, options.search);
    const [page, timeZone] = await Promise.all([this.dispatch.send<DispatchConversationPage>(Patterns.dispatch.conversationList, query), this.directory.timeZoneOf(clientId)]);
    const unread = await this.unreadOf(clientId, page.items);
    return {
      items: page.items.map((thread) => ({
        number: thread.number,
        lastAt: thread.lastAt,
        lastText: thread.lastText,
        lastEncrypted: thread.lastEncrypted,
        lastDirection: thread.lastDirection,
        unread: unread[thread.number] ?? 0,
        timeZone,
      })),
      nextCursor: page.nextCursor,
    };
  }

  /** A page of the thread, newest `MESSAGES_PER_PAGE` before `before`, given oldest first. */
  async thread(clientId: number, number: string, before: string | undefined): Promise<ConversationThread> {
    if (before !== undefined && Number.isNaN(Date.parse(before))) throw new InvalidRequestError('before must be an instant this page gave');
    const limit = MESSAGES_PER_PAGE;
    const tasksQuery: ConversationTasksQuery = { clientId, number, limit, ...(before ? { before } : {}) };
    const repliesQuery: MessagesFromQuery = { clientId, from: number, limit, ...(before ? { before } : {}) };
    const optedOutQuery: OptOutCheckQuery = { clientId, numbers: [number] };
    const [threads, tasks, replies, optedOut, timeZone] = await Promise.all([
      this.dispatch.send<DispatchConversationPage>(Patterns.dispatch.conversationList, { clientId, limit: 1, numbers: [number] } satisfies ConversationListQuery),
      this.dispatch.send<TaskView[]>(Patterns.dispatch.conversationTasks, tasksQuery),
      this.inbox.send<InboxMessageView[]>(Patterns.inbox.messagesFrom, repliesQuery),
      this.dispatch.send<string[]>(Patterns.dispatch.optOutCheck, optedOutQuery),
      this.directory.timeZoneOf(clientId),
    ]);
    const conversation = threads.items[0];
    if (!conversation) throw new NotFoundError('conversation');
    const merged: ThreadMessage[] = [
      ...tasks.map((task): ThreadMessage => ({ kind: 'out', id: task.id, at: task.createdAt, message: task.message, encrypted: task.encrypted, status: task.status, error: task.error })),
      ...replies.map((reply): ThreadMessage => ({ kind: 'in', id: reply.id, at: reply.receivedAt, message: reply.message, encrypted: reply.encrypted, phoneId: reply.phoneId })),
    ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || (a.kind === b.kind ? b.id - a.id : a.kind === 'in' ? -1 : 1));
    const page = merged.slice(0, limit);
    const more = tasks.length === limit || replies.length === limit || merged.length > limit;
    return {
      number,
      messages: page.reverse(),
      before: more && page.length > 0 ? page[0]!.at : null,
      replyPhone: await this.replyPhoneOf(clientId, conversation),
      optedOut: optedOut.includes(number),
      timeZone,
    };
  }

  async read(clientId: number, number: string): Promise<void> {
    await this.dispatch.send<ConversationView>(Patterns.dispatch.conversationRead, { clientId, number });
  }

  /** Queued as Send queues one message (sealed in the page when `encrypted`), through the phone the latest reply came through while it is the client's and online. */
  async reply(clientId: number, number: string, body: ConversationReply): Promise<SendResult> {
    const threads = await this.dispatch.send<DispatchConversationPage>(Patterns.dispatch.conversationList, { clientId, limit: 1, numbers: [number] } satisfies ConversationListQuery);
    if (!threads.items[0]) throw new NotFoundError('conversation');
    const phone = await this.replyPhoneOf(clientId, threads.items[0]);
    const task = { recipient: number, message: body.message, ...(body.encrypted ? { encrypted: true } : {}), ...(phone ? { phone_id: phone.id } : {}) };
    const { results } = await this.sending.sendBodies(clientId, [task], body.idempotencyKey);
    return results[0]!;
  }

  private async replyPhoneOf(clientId: number, thread: ConversationView): Promise<{ id: number; name: string } | null> {
    if (thread.replyPhoneId === null) return null;
    const query: PhoneListQuery = { clientId };
    const phone = (await this.dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, query)).find((candidate) => candidate.id === thread.replyPhoneId);
    return phone && phone.active && phone.state === 'online' ? { id: phone.id, name: phone.name } : null;
  }

  private async numbersWithText(clientId: number, text: string): Promise<string[]> {
    const sent: ConversationSearchQuery = { clientId, text, limit: SEARCH_HITS };
    const received: MessagesSearchSendersQuery = { clientId, text, limit: SEARCH_HITS };
    const [fromTasks, fromReplies] = await Promise.all([this.dispatch.send<string[]>(Patterns.dispatch.conversationSearch, sent), this.inbox.send<string[]>(Patterns.inbox.messagesSearchSenders, received)]);
    return [...new Set([...fromTasks, ...fromReplies])].slice(0, SEARCH_HITS);
  }

  private async unreadOf(clientId: number, threads: readonly ConversationView[]): Promise<Record<string, number>> {
    const withReplies = threads.filter((thread) => thread.replyAt !== null && (thread.readAt === null || thread.replyAt > thread.readAt));
    if (withReplies.length === 0) return {};
    const query: MessagesUnreadQuery = { clientId, threads: withReplies.map((thread) => ({ from: thread.number, since: thread.readAt })) };
    return this.inbox.send<Record<string, number>>(Patterns.inbox.messagesUnread, query);
  }
}
