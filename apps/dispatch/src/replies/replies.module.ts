import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { RepliesController } from './replies.controller.js';
import { RepliesRepository } from './replies.repository.js';
import { ReplyOwnerService } from './reply-owner.service.js';

@Module({
  imports: [DatabaseModule],
  controllers: [RepliesController],
  providers: [RepliesRepository, ReplyOwnerService],
})
export class RepliesModule {}
