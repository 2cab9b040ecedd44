import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, ReplyOwnerQuery, type ReplyOwner } from '@smsq/contracts';
import { ReplyOwnerService } from './reply-owner.service.js';

@Controller()
export class RepliesController {
  constructor(private readonly owners: ReplyOwnerService) {}

  @MessagePattern(Patterns.dispatch.replyOwner)
  owner(@Payload() query: ReplyOwnerQuery): Promise<ReplyOwner> {
    return this.owners.ownerOf(query);
  }
}
