import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { OptOutsModule } from '../opt-outs/opt-outs.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { RepliesController } from './replies.controller.js';
import { RepliesRepository } from './replies.repository.js';
import { ReplyOwnerService } from './reply-owner.service.js';

/** Replies inbox stores: whose they are (Profile B), and what each one received means (a keyword, a webhook event). */
@Module({
  imports: [DatabaseModule, OptOutsModule, WebhooksModule, ConversationsModule],
  controllers: [RepliesController],
  providers: [RepliesRepository, ReplyOwnerService],
})
export class RepliesModule {}
