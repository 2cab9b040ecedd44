import { Body, Controller, Get, HttpCode, Patch, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { SendingRulesService } from './sending-rules.service.js';

@Controller('smsapi')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class SendingRulesController {
  constructor(private readonly rules: SendingRulesService) {}

  @Get('sending-rules')
  get(@AuthenticatedClient() client: ApiKeyOwner) {
    return this.rules.get(client);
  }

  @Patch('sending-rules')
  @HttpCode(200)
  update(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown) {
    return this.rules.update(client, body);
  }
}
