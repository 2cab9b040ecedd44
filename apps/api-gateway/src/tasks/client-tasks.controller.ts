import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { ClientTasksService } from './client-tasks.service.js';

@Controller('smsapi')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class ClientTasksController {
  constructor(private readonly tasks: ClientTasksService) {}

  @Post('create-task')
  @HttpCode(201)
  create(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.tasks.create(client, body, idempotencyKey);
  }

  @Post('create-tasks')
  @HttpCode(200)
  createMany(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.tasks.createMany(client, body, idempotencyKey);
  }

  @Get('tasks')
  list(@AuthenticatedClient() client: ApiKeyOwner, @Query() query: Record<string, unknown>) {
    return this.tasks.list(client, query);
  }

  @Get('tasks/:id')
  get(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return this.tasks.get(client, id);
  }

  @Post('tasks/:id/cancel')
  @HttpCode(200)
  cancel(@AuthenticatedClient() client: ApiKeyOwner, @Param('id') id: string) {
    return this.tasks.cancel(client, id);
  }
}
