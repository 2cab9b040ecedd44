import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SendRequest } from './send-request.js';
import type { SentMessage } from './sent-messages.js';
import { SendsService, type SendResult } from './sends.service.js';

@Controller()
export class SendsController {
  constructor(private readonly sends: SendsService) {}

  /** 200 `{ok, message_id}` when the simulated carrier took the SMS, 502 `{ok: false, error}` when it failed. */
  @Post('send')
  @HttpCode(200)
  send(@Body() body: SendRequest, @Res({ passthrough: true }) reply: FastifyReply): SendResult {
    const result = this.sends.send(body);
    if (!result.ok) void reply.status(502);
    return result;
  }

  /** The remembered sends, newest first, as a bare array. */
  @Get('messages')
  list(): SentMessage[] {
    return this.sends.list();
  }
}
