import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ConversationListQuery,
  ConversationReadCommand,
  ConversationSearchQuery,
  ConversationTasksQuery,
  Patterns,
  type ConversationPage,
  type ConversationView,
  type TaskView,
} from '@smsq/contracts';
import { ConversationsService } from './conversations.service.js';

@Controller()
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  @MessagePattern(Patterns.dispatch.conversationList)
  list(@Payload() query: ConversationListQuery): Promise<ConversationPage> {
    return this.conversations.list(query);
  }

  @MessagePattern(Patterns.dispatch.conversationTasks)
  tasks(@Payload() query: ConversationTasksQuery): Promise<TaskView[]> {
    return this.conversations.tasks(query);
  }

  @MessagePattern(Patterns.dispatch.conversationRead)
  read(@Payload() command: ConversationReadCommand): Promise<ConversationView> {
    return this.conversations.read(command);
  }

  @MessagePattern(Patterns.dispatch.conversationSearch)
  search(@Payload() query: ConversationSearchQuery): Promise<string[]> {
    return this.conversations.search(query);
  }
}
