import { Body, Controller, Get, HttpCode, Post, Query, Res, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { BasicAuthGuard } from '../auth/basic-auth.guard.js';
import { SmsGateBadRequest, UnreadableBody } from '../errors/smsgate-errors.js';
import { SmsGateExceptionFilter } from '../errors/smsgate-exception.filter.js';
import { PhoneClock } from '../phone/phone-clock.js';
import { SmsGateConfig } from '../smsgate-config.js';
import { inboxEntryView } from './inbox-entry-view.js';
import { readInboxQuery } from './inbox-query.js';
import { readInboxRefreshRequest } from './inbox-refresh-request.js';
import { InboxService } from './inbox.service.js';
import { PhoneHangInterceptor } from '../sim/phone-hang.js';

@Controller()
@UseInterceptors(PhoneHangInterceptor)
@UseGuards(BasicAuthGuard)
@UseFilters(SmsGateExceptionFilter)
export class InboxController {
  constructor(
    private readonly config: SmsGateConfig,
    private readonly clock: PhoneClock,
    private readonly inbox: InboxService,
  ) {}

  /** Received SMS, newest first; the total in X-Total-Count. */
  @Get('inbox')
  list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Array<Record<string, unknown>> {
    const { total, page } = this.inbox.select(readInboxQuery(query, this.config.deviceId, this.clock.now()));
    void reply.header('x-total-count', String(total));
    return page.map((entry) => inboxEntryView(entry, this.clock));
  }

  /** The older export route: webhooks fire unless `triggerWebhooks` is false. */
  @Post(['message/inbox/export', 'messages/inbox/export'])
  @HttpCode(202)
  export(@Body() body: unknown): void {
    const request = readInboxRefreshRequest(body);
    this.inbox.export(request, request.triggerWebhooks ?? true);
  }

  /** The current refresh route: webhooks fire only with `triggerWebhooks: true`. */
  @Post('inbox/refresh')
  @HttpCode(202)
  refresh(@Body() body: unknown): void {
    let request;
    try {
      request = readInboxRefreshRequest(body);
    } catch (error) {
      throw error instanceof UnreadableBody ? new SmsGateBadRequest('Invalid request body') : error;
    }
    this.inbox.export(request, request.triggerWebhooks ?? false);
  }
}
