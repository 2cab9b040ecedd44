import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { BasicAuthGuard } from '../auth/basic-auth.guard.js';
import { SmsGateExceptionFilter } from '../errors/smsgate-exception.filter.js';
import { SmsGateConfig } from '../smsgate-config.js';
import { readWebhookRegistration } from './webhook-registration.js';
import { WebhookRegistry, webhookView } from './webhook-registry.js';
import { PhoneHangInterceptor } from '../sim/phone-hang.js';

/** The app mounts its webhook routes under both prefixes. */
@Controller(['webhook', 'webhooks'])
@UseInterceptors(PhoneHangInterceptor)
@UseGuards(BasicAuthGuard)
@UseFilters(SmsGateExceptionFilter)
export class WebhooksController {
  constructor(
    private readonly config: SmsGateConfig,
    private readonly webhooks: WebhookRegistry,
  ) {}

  @Get()
  list(): Array<Record<string, unknown>> {
    return this.webhooks.all().map(webhookView);
  }

  /** 201 with the webhook; one with the same id is replaced. */
  @Post()
  @HttpCode(201)
  register(@Body() body: unknown): Record<string, unknown> {
    return webhookView(this.webhooks.replace(readWebhookRegistration(body, this.config.deviceId, this.config.insecureWebhooks)));
  }

  /** 204, whether or not there was such a webhook. */
  @Delete(':id')
  @HttpCode(204)
  remove(@Param('id') id: string): void {
    this.webhooks.delete(id);
  }
}
