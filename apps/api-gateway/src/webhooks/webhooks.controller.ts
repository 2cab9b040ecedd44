import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { WebhooksService } from './webhooks.service.js';

@Controller('smsapi/webhooks')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  create(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown) {
    return this.webhooks.create(client.clientId, body);
  }

  @Get()
  list(@AuthenticatedClient() client: ApiKeyOwner) {
    return this.webhooks.list(client.clientId);
  }

  @Delete(':id')
  @HttpCode(200)
  delete(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return this.webhooks.delete(client.clientId, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return this.webhooks.rotateSecret(client.clientId, id);
  }

  @Post(':id/enable')
  @HttpCode(200)
  enable(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return this.webhooks.enable(client.clientId, id);
  }
}
