import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, ReplyOwnerQuery, ReplyReceivedCommand, type Ok, type ReplyOwner } from '@smsq/contracts';
import { ConversationsService } from '../conversations/conversations.service.js';
import { OptOutsService } from '../opt-outs/opt-outs.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { ReplyOwnerService } from './reply-owner.service.js';

@Controller()
export class RepliesController {
  constructor(
    private readonly owners: ReplyOwnerService,
    private readonly optOuts: OptOutsService,
    private readonly webhooks: WebhooksService,
    private readonly conversations: ConversationsService,
  ) {}

  @MessagePattern(Patterns.dispatch.replyOwner)
  owner(@Payload() query: ReplyOwnerQuery): Promise<ReplyOwner> {
    return this.owners.ownerOf(query);
  }

  /** A reply inbox stored for a client (relayed at least once): a keyword changes its sender's opt-out state, its thread moves up, and `message.received` tells the client. */
  @MessagePattern(Patterns.dispatch.webhookReplyReceived)
  async received(@Payload() command: ReplyReceivedCommand): Promise<Ok> {
    await this.optOuts.fromReply(command);
    await this.conversations.replyReceived(command);
    return this.webhooks.queueReplyEvent(command);
  }
}
