import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { storedIdFromPath } from '../identity/stored-id.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { templateBody, TemplatesService } from './templates.service.js';

@Controller('smsapi/templates')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  async list(@AuthenticatedClient() client: ApiKeyOwner) {
    return { items: (await this.templates.list(client.clientId)).map(templateBody) };
  }

  @Post()
  @HttpCode(201)
  async create(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown) {
    return templateBody(await this.templates.saveFromRequest(client.clientId, undefined, body));
  }

  @Get(':id')
  async get(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return templateBody(await this.templates.get(client.clientId, storedIdFromPath(id, 'template')));
  }

  @Put(':id')
  @HttpCode(200)
  async replace(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string, @Body() body: unknown) {
    return templateBody(await this.templates.saveFromRequest(client.clientId, storedIdFromPath(id, 'template'), body));
  }

  @Delete(':id')
  @HttpCode(200)
  delete(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return this.templates.delete(client.clientId, storedIdFromPath(id, 'template'));
  }
}
