import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { WorkerTokenHolder } from '../identity/worker-tokens.repository.js';
import { AuthenticatedWorker, WorkerTokenGuard } from '../identity/worker-token.guard.js';
import { parsePhoneHealth } from './phone-health-request.js';
import { PhoneHealthService } from './phone-health.service.js';

/** Phones and gateways report their battery, charging and connection for the dashboard. */
@Controller('smsapi')
@UseGuards(WorkerTokenGuard)
export class PhoneHealthController {
  constructor(private readonly health: PhoneHealthService) {}

  @Post('phone-health')
  @HttpCode(200)
  report(@AuthenticatedWorker() worker: WorkerTokenHolder, @Body() body: unknown) {
    return this.health.report(worker, parsePhoneHealth(body));
  }
}
