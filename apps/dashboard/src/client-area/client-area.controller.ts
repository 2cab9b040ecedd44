import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import type { ApiKeyRow, CreatedApiKey, InboxRow, Overview, Page, PhoneRow, TaskRow } from '@smsq/dashboard-api';
import { SessionGuard } from '../auth/session.guard.js';
import { ActingClientId } from '../auth/signed-in.decorators.js';
import { entityIdOf, queryPage, queryText } from '../http/request-values.js';
import { PhoneUpdateBody } from './dto/phone-update.body.js';
import { InboxService } from './inbox.service.js';
import { KeysService } from './keys.service.js';
import { OverviewService } from './overview.service.js';
import { PhonesService } from './phones.service.js';
import { TasksService } from './tasks.service.js';

/** A signed-in user's own client: every service call carries its client id, so another client's rows are not found. */
@Controller('api')
@UseGuards(SessionGuard)
export class ClientAreaController {
  constructor(
    private readonly overviews: OverviewService,
    private readonly keys: KeysService,
    private readonly phones: PhonesService,
    private readonly tasks: TasksService,
    private readonly inbox: InboxService,
  ) {}

  @Get('overview')
  overview(@ActingClientId() clientId: number): Promise<Overview> {
    return this.overviews.overview(clientId);
  }

  @Get('keys')
  listKeys(@ActingClientId() clientId: number): Promise<ApiKeyRow[]> {
    return this.keys.list(clientId);
  }

  @Post('keys')
  @HttpCode(201)
  createKey(@ActingClientId() clientId: number): Promise<CreatedApiKey> {
    return this.keys.create(clientId);
  }

  @Delete('keys/:id')
  @HttpCode(204)
  revokeKey(@ActingClientId() clientId: number, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(clientId, entityIdOf(id, 'key'));
  }

  @Get('phones')
  listPhones(@ActingClientId() clientId: number): Promise<PhoneRow[]> {
    return this.phones.list(clientId);
  }

  @Patch('phones/:id')
  updatePhone(@ActingClientId() clientId: number, @Param('id') id: string, @Body() body: PhoneUpdateBody): Promise<PhoneRow> {
    return this.phones.update(clientId, entityIdOf(id, 'phone'), body);
  }

  @Get('tasks')
  listTasks(@ActingClientId() clientId: number, @Query() query: unknown): Promise<Page<TaskRow>> {
    return this.tasks.list(clientId, {
      status: queryText(query, 'status', 16),
      from: queryText(query, 'from', 10),
      to: queryText(query, 'to', 10),
      recipient: queryText(query, 'recipient', 32),
      page: queryPage(query),
    });
  }

  @Get('tasks/:id')
  getTask(@ActingClientId() clientId: number, @Param('id') id: string): Promise<TaskRow> {
    return this.tasks.get(clientId, entityIdOf(id, 'task'));
  }

  @Post('tasks/:id/resend')
  @HttpCode(201)
  resendTask(@ActingClientId() clientId: number, @Param('id') id: string): Promise<TaskRow> {
    return this.tasks.resend(clientId, entityIdOf(id, 'task'));
  }

  @Get('inbox')
  listInbox(@ActingClientId() clientId: number, @Query() query: unknown): Promise<Page<InboxRow>> {
    return this.inbox.list(clientId, queryPage(query), queryText(query, 'search', 200));
  }
}
