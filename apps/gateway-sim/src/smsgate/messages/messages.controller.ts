import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BasicAuthGuard } from '../auth/basic-auth.guard.js';
import { SmsGateExceptionFilter } from '../errors/smsgate-exception.filter.js';
import { PhoneClock } from '../phone/phone-clock.js';
import { SmsGateConfig } from '../smsgate-config.js';
import { readMessageListQuery } from './message-list-query.js';
import { messageView } from './message-view.js';
import { MessagesService } from './messages.service.js';
import { readSendOrder } from './send-order.js';
import { PhoneHangInterceptor } from '../sim/phone-hang.js';

/** The app mounts its message routes under both prefixes. */
@Controller(['message', 'messages'])
@UseInterceptors(PhoneHangInterceptor)
@UseGuards(BasicAuthGuard)
@UseFilters(SmsGateExceptionFilter)
export class MessagesController {
  constructor(
    private readonly config: SmsGateConfig,
    private readonly clock: PhoneClock,
    private readonly messages: MessagesService,
  ) {}

  /** 202 with the queued message, its text included. */
  @Post()
  @HttpCode(202)
  send(@Body() body: unknown, @Query() query: Record<string, unknown>): Record<string, unknown> {
    const message = this.messages.enqueue(readSendOrder(body, query, this.config.deviceId, this.clock.now()));
    return messageView(message, this.config.deviceId, true, this.clock);
  }

  /** Newest first; the text only with `includeContent=true`; the total in X-Total-Count. */
  @Get()
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Array<Record<string, unknown>> {
    const filter = readMessageListQuery(query, this.config.deviceId, this.clock.now());
    const { total, page } = this.messages.select(filter);
    void reply.header('x-total-count', String(total));
    return page.map((message) => messageView(message, this.config.deviceId, filter.includeContent, this.clock));
  }

  @Get(':id')
  get(@Param('id') id: string): Record<string, unknown> {
    return messageView(this.messages.get(id), this.config.deviceId, true, this.clock);
  }

  /** Cancels a message that is still Pending: 200 with the message (without its text), 400 once it left the queue. */
  @Delete(':id')
  cancel(@Param('id') id: string): Record<string, unknown> {
    return messageView(this.messages.cancel(id), this.config.deviceId, false, this.clock);
  }
}
