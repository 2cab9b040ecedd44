import { Body, Controller, Get, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ServiceShutdown } from '@smsq/platform';
import type { FastifyReply } from 'fastify';
import type { WorkerTokenHolder } from '../identity/worker-tokens.repository.js';
import { AuthenticatedWorker, WorkerTokenGuard } from '../identity/worker-token.guard.js';
import { parseClaimLimit, parseStatusReport, parseStatusReports, parseWait } from './worker-requests.js';
import { WorkerTasksService } from './worker-tasks.service.js';

/** The delivery path: phones and workers claim due tasks and report what became of them. */
@Controller('smsapi')
@UseGuards(WorkerTokenGuard)
export class WorkerTasksController {
  constructor(
    private readonly tasks: WorkerTasksService,
    private readonly shutdown: ServiceShutdown,
  ) {}

  @Get('pending-tasks')
  pending(@AuthenticatedWorker() worker: WorkerTokenHolder, @Query('wait') wait: unknown, @Query('limit') limit: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const waitS = parseWait(wait);
    const batch = parseClaimLimit(limit);
    if (batch === undefined) return this.tasks.claim(worker, waitS, pollerGone(reply), this.shutdown.signal);
    return this.tasks.claimMany(worker, batch, waitS, pollerGone(reply), this.shutdown.signal);
  }

  @Post('task-status')
  @HttpCode(200)
  report(@AuthenticatedWorker() worker: WorkerTokenHolder, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.tasks.report(worker, parseStatusReport(body), pollerGone(reply), this.shutdown.signal);
  }

  @Post('task-statuses')
  @HttpCode(200)
  reportMany(@AuthenticatedWorker() worker: WorkerTokenHolder, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.tasks.reportMany(worker, parseStatusReports(body), pollerGone(reply), this.shutdown.signal);
  }
}

/** Aborts when the poller's connection closes before it was answered. */
function pollerGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  if (reply.raw.destroyed) gone.abort();
  return gone.signal;
}
