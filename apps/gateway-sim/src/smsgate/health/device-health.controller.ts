import { Controller, Get, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { MessageStore } from '../messages/message-store.js';
import { PhoneClock } from '../phone/phone-clock.js';
import { SmsGateConfig } from '../smsgate-config.js';
import { deviceHealth } from './device-health.js';
import { PhoneHangInterceptor } from '../sim/phone-hang.js';

const HOUR_MS = 3_600_000;

/** `GET /health`, the one route without credentials: 200 when passing or warning, 500 when a check fails. */
@Controller()
@UseInterceptors(PhoneHangInterceptor)
export class DeviceHealthController {
  constructor(
    private readonly config: SmsGateConfig,
    private readonly clock: PhoneClock,
    private readonly messages: MessageStore,
  ) {}

  @Get('health')
  health(@Res({ passthrough: true }) reply: FastifyReply): ReturnType<typeof deviceHealth> {
    const health = deviceHealth(this.config, this.messages.processedSince(new Date(this.clock.now().getTime() - HOUR_MS)));
    void reply.status(health.status === 'fail' ? 500 : 200);
    return health;
  }
}
