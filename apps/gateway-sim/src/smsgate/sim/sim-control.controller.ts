import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { inboxId, receivedMessageId } from '../inbox/received-sms.js';
import { InboxService } from '../inbox/inbox.service.js';
import { SendFaults, type FailurePlan } from '../messages/send-faults.js';
import { SendLimit, type SendLimitView } from '../messages/send-limit.js';
import { SentSmsLog, type SentSms, type SentSmsCounts } from '../messages/sent-sms-log.js';
import { SmsSender } from '../messages/sms-sender.js';
import { PhoneClock } from '../phone/phone-clock.js';
import { FailureRequest } from './failure-request.js';
import { HangRequest } from './hang-request.js';
import { HoldRequest } from './hold-request.js';
import { IncomingSmsRequest } from './incoming-sms-request.js';
import { JsonBodyGuard } from './json-body.guard.js';
import { LimitRequest } from './limit-request.js';
import { PhoneHang } from './phone-hang.js';

/**
 * What a test does to the phone itself, outside the app's API and without its credentials: slow
 * it down, make an SMS arrive, and read what it actually sent. Errors here are smsq's shape.
 */
@Controller('sim')
@UseGuards(JsonBodyGuard)
export class SimControlController {
  constructor(
    private readonly clock: PhoneClock,
    private readonly sender: SmsSender,
    private readonly inbox: InboxService,
    private readonly sent: SentSmsLog,
    private readonly faults: SendFaults,
    private readonly limit: SendLimit,
    private readonly phone: PhoneHang,
  ) {}

  @Post('hold')
  @HttpCode(200)
  hold(@Body() body: HoldRequest): { hold: boolean } {
    this.sender.hold(body.hold);
    return { hold: this.sender.isHeld };
  }

  /** The app's own routes take requests and answer none while `hang` is true (phone-hang.ts); these routes still answer. */
  @Post('hang')
  @HttpCode(200)
  hang(@Body() body: HangRequest): { hang: boolean } {
    this.phone.hanging = body.hang;
    return { hang: this.phone.hanging };
  }

  /** 201 with the ids the app gives the SMS: `inboxId` in `GET /inbox`, `messageId` in `sms:received`. */
  @Post('incoming')
  @HttpCode(201)
  incoming(@Body() body: IncomingSmsRequest): { inboxId: string; messageId: string; receivedAt: string } {
    const sms = { sender: body.from, text: body.message, receivedAt: body.receivedAt === undefined ? this.clock.now() : new Date(body.receivedAt), simNumber: body.simNumber ?? null };
    this.inbox.receive(sms, body.missed ?? false);
    return { inboxId: inboxId(sms), messageId: receivedMessageId(sms), receivedAt: this.clock.format(sms.receivedAt) };
  }

  /** Every SMS the phone handed to the radio and the radio took, oldest first. */
  @Get('sends')
  sends(): SentSms[] {
    return this.sent.all();
  }

  /** How many SMS went out per message id and per smsq task (`smsq-<task>-…` ids). */
  @Get('sends/counts')
  sendCounts(): SentSmsCounts {
    return this.sent.counts();
  }

  /** How sends fail from now on: at `rate`, as `kind` says; what is left out stays as it was. */
  @Post('failure')
  @HttpCode(200)
  setFailure(@Body() body: FailureRequest): FailurePlan {
    this.faults.set({ ...this.faults.plan, ...(body.rate === undefined ? {} : { rate: body.rate }), ...(body.kind === undefined ? {} : { kind: body.kind }) });
    return this.faults.plan;
  }

  @Get('failure')
  failure(): FailurePlan {
    return this.faults.plan;
  }

  /** Android's limit on SMS sent: `after` more SMS from now, then every send fails with LIMIT_EXCEEDED; null lifts it. */
  @Post('limit')
  @HttpCode(200)
  setLimit(@Body() body: LimitRequest): SendLimitView {
    this.limit.set(body.after);
    return this.limit.view;
  }

  @Get('limit')
  sendLimit(): SendLimitView {
    return this.limit.view;
  }
}
