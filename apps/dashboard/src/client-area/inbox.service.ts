import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type InboxPage, type MessagesListQuery } from '@smsq/contracts';
import type { InboxRow, Page } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import { inboxRowOf } from '../shared/views.js';

export const INBOX_PAGE_SIZE = 50;

@Injectable()
export class InboxService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('inbox')) private readonly inbox: ServiceClient,
  ) {}

  /** The client's replies, newest first. */
  async list(clientId: number, page: number, search: string | undefined): Promise<Page<InboxRow>> {
    const query: MessagesListQuery = { clientId, page, pageSize: INBOX_PAGE_SIZE, ...(search === undefined ? {} : { search }) };
    const [answer, timeZone] = await Promise.all([this.inbox.send<InboxPage>(Patterns.inbox.messagesList, query), this.directory.timeZoneOf(clientId)]);
    return { items: answer.items.map((message) => inboxRowOf(message, timeZone)), total: answer.total, page: answer.page, pageSize: answer.pageSize };
  }
}
