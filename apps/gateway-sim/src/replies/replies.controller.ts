import { Body, Controller, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ReplyRequest } from './reply-request.js';
import { RepliesService } from './replies.service.js';

@Controller()
export class RepliesController {
  constructor(private readonly replies: RepliesService) {}

  /** Simulates an SMS received by the phone; answers whatever smsq answered. */
  @Post('replies')
  async reply(@Body() body: ReplyRequest, @Res() reply: FastifyReply): Promise<void> {
    const answer = await this.replies.forward(body);
    void reply.status(answer.status).header('content-type', answer.contentType).send(answer.body);
  }
}
