import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { ClientPhonesService } from './client-phones.service.js';

/** A client's phones (Profile A) or VIP gateways (Profile B): their state, last contact, number, SIM limits and pauses. */
@Controller('smsapi')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class ClientPhonesController {
  constructor(private readonly phones: ClientPhonesService) {}

  @Get('phones')
  list(@AuthenticatedClient() client: ApiKeyOwner) {
    return this.phones.list(client);
  }

  @Patch('phones/:id')
  update(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string, @Body() body: unknown) {
    return this.phones.update(client, id, body);
  }

  @Post('phones/:id/resume')
  @HttpCode(200)
  resume(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return this.phones.resume(client, id);
  }
}
