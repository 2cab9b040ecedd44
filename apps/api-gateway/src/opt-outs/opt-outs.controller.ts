import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { OptOutsService } from './opt-outs.service.js';

@Controller('smsapi')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class OptOutsController {
  constructor(private readonly optOuts: OptOutsService) {}

  @Get('opt-outs')
  list(@AuthenticatedClient() client: ApiKeyOwner, @Query() query: Record<string, unknown>) {
    return this.optOuts.list(client.clientId, query);
  }

  @Post('opt-outs')
  @HttpCode(200)
  add(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown) {
    return this.optOuts.add(client.clientId, body);
  }

  @Delete('opt-outs/:number')
  @HttpCode(200)
  remove(@AuthenticatedClient() client: ApiKeyOwner, @Param('number') number: string) {
    return this.optOuts.remove(client.clientId, number);
  }

  @Get('opt-out-settings')
  settings(@AuthenticatedClient() client: ApiKeyOwner) {
    return this.optOuts.settings(client.clientId);
  }

  @Patch('opt-out-settings')
  @HttpCode(200)
  updateSettings(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown) {
    return this.optOuts.updateSettings(client.clientId, body);
  }
}
