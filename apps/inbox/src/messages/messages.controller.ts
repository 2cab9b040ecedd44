import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessagesListQuery, MessagesStoreCommand, Patterns, type InboxPage, type MessagesStored } from '@smsq/contracts';
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
}
