import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { WorkerTokenHolder } from '../identity/worker-tokens.repository.js';
import { AuthenticatedWorker, WorkerTokenGuard } from '../identity/worker-token.guard.js';
import { InboundService } from './inbound.service.js';

@Controller('smsapi')
@UseGuards(WorkerTokenGuard)
export class InboundController {
  constructor(private readonly inbound: InboundService) {}

  @Post('inbound')
  @HttpCode(201)
  receive(@AuthenticatedWorker() worker: WorkerTokenHolder, @Body() body: unknown) {
    return this.inbound.receive(worker, body);
  }

  /** The client's own reply keywords, for a worker that seals replies and reads their keywords itself. */
  @Get('reply-keywords')
  replyKeywords(@AuthenticatedWorker() worker: WorkerTokenHolder) {
    return this.inbound.replyKeywords(worker);
  }
}
