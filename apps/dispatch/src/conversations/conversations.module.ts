import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { ConversationsController } from './conversations.controller.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';

/** One thread per client and number: touched by every stored task and every relayed reply. */
@Module({
  imports: [DatabaseModule],
  controllers: [ConversationsController],
  providers: [ConversationsRepository, ConversationsService],
  exports: [ConversationsRepository, ConversationsService],
})
export class ConversationsModule {}
