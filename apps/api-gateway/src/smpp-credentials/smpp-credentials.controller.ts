import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { storedIdFromPath } from '../identity/stored-id.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { parseSmppCredentialRequest } from './smpp-credential-request.js';
import { smppCredentialBody, SmppCredentialsService } from './smpp-credentials.service.js';

/** The client's SMPP credentials: what an SMPP client binds to smsq's SMPP port with. */
@Controller('smsapi/smpp-credentials')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class SmppCredentialsController {
  constructor(private readonly credentials: SmppCredentialsService) {}

  @Get()
  async list(@AuthenticatedClient() client: ApiKeyOwner) {
    return { items: (await this.credentials.list(client.clientId)).map(smppCredentialBody) };
  }

  @Post()
  @HttpCode(201)
  async create(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown) {
    const created = await this.credentials.create(client.clientId, parseSmppCredentialRequest(body));
    return { ...smppCredentialBody(created), password: created.password };
  }

  @Delete(':id')
  @HttpCode(200)
  async revoke(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return smppCredentialBody(await this.credentials.revoke(client.clientId, storedIdFromPath(id, 'SMPP credential')));
  }
}
