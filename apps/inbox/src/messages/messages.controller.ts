import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessagesAfterQuery, MessagesFromQuery, MessagesListQuery, MessagesSearchSendersQuery, MessagesStoreCommand, MessagesUnreadQuery, Patterns, type InboxMessageView, type InboxPage, type MessagesStored } from '@smsq/contracts';
import { MessagesService } from './messages.service.js';

@Controller()
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @MessagePattern(Patterns.inbox.messagesStore)
  store(@Payload() command: MessagesStoreCommand): Promise<MessagesStored> {
    return this.messages.store(command);
  }

  @MessagePattern(Patterns.inbox.messagesList)
  list(@Payload() query: MessagesListQuery): Promise<InboxPage> {
    return this.messages.list(query);
  }

  @MessagePattern(Patterns.inbox.messagesFrom)
  from(@Payload() query: MessagesFromQuery): Promise<InboxMessageView[]> {
    return this.messages.from(query);
  }

  @MessagePattern(Patterns.inbox.messagesUnread)
  unread(@Payload() query: MessagesUnreadQuery): Promise<Record<string, number>> {
    return this.messages.unread(query);
  }

  @MessagePattern(Patterns.inbox.messagesAfter)
  after(@Payload() query: MessagesAfterQuery): Promise<InboxMessageView[]> {
    return this.messages.after(query);
  }

  @MessagePattern(Patterns.inbox.messagesSearchSenders)
  searchSenders(@Payload() query: MessagesSearchSendersQuery): Promise<string[]> {
    return this.messages.searchSenders(query);
  }
}
