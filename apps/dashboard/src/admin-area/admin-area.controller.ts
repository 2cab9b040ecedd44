import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import type { ClientDetail, ClientListRow, ClientRow, CreatedApiKey, CreatedWorkerToken, GatewayRow, Page, SystemOverview, WorkerTokenRow } from '@smsq/dashboard-api';
import { AdminGuard } from '../auth/admin.guard.js';
import { SessionGuard } from '../auth/session.guard.js';
import { entityIdOf, queryPage, queryText } from '../http/request-values.js';
import { AdminClientsService } from './admin-clients.service.js';
import { AdminGatewaysService } from './admin-gateways.service.js';
import { AdminSystemService } from './admin-system.service.js';
import { AdminWorkerTokensService } from './admin-worker-tokens.service.js';
import { ClientCreateBody, ClientDisabledBody, CreditsBody, GatewayCreateBody, GatewayUpdateBody, PlanBody, WorkerTokenCreateBody } from './dto/admin.bodies.js';

/** Admins only; to everyone else these routes answer 404 as if they did not exist. */
@Controller('api/admin')
@UseGuards(SessionGuard, AdminGuard)
export class AdminAreaController {
  constructor(
    private readonly clients: AdminClientsService,
    private readonly gateways: AdminGatewaysService,
    private readonly workerTokens: AdminWorkerTokensService,
    private readonly system: AdminSystemService,
  ) {}

  @Get('clients')
  listClients(@Query() query: unknown): Promise<Page<ClientListRow>> {
    return this.clients.list(queryPage(query), queryText(query, 'search', 200));
  }

  @Post('clients')
  @HttpCode(201)
  createClient(@Body() body: ClientCreateBody): Promise<ClientRow> {
    return this.clients.create(body);
  }

  @Get('clients/:id')
  client(@Param('id') id: string): Promise<ClientDetail> {
    return this.clients.detail(entityIdOf(id, 'client'));
  }

  @Put('clients/:id/plan')
  setPlan(@Param('id') id: string, @Body() body: PlanBody): Promise<ClientDetail> {
    return this.clients.setPlan(entityIdOf(id, 'client'), body);
  }

  @Post('clients/:id/credits')
  @HttpCode(200)
  grantCredits(@Param('id') id: string, @Body() body: CreditsBody): Promise<ClientDetail> {
    return this.clients.grantCredits(entityIdOf(id, 'client'), body);
  }

  @Put('clients/:id/disabled')
  setDisabled(@Param('id') id: string, @Body() body: ClientDisabledBody): Promise<ClientDetail> {
    return this.clients.setDisabled(entityIdOf(id, 'client'), body.disabled);
  }

  @Post('clients/:id/keys')
  @HttpCode(201)
  createKey(@Param('id') id: string): Promise<CreatedApiKey> {
    return this.clients.createKey(entityIdOf(id, 'client'));
  }

  @Delete('keys/:id')
  @HttpCode(204)
  revokeKey(@Param('id') id: string): Promise<void> {
    return this.clients.revokeKey(entityIdOf(id, 'key'));
  }

  @Get('gateways')
  listGateways(): Promise<GatewayRow[]> {
    return this.gateways.list();
  }

  @Post('gateways')
  @HttpCode(201)
  createGateway(@Body() body: GatewayCreateBody): Promise<GatewayRow> {
    return this.gateways.create(body);
  }

  @Patch('gateways/:id')
  updateGateway(@Param('id') id: string, @Body() body: GatewayUpdateBody): Promise<GatewayRow> {
    return this.gateways.update(entityIdOf(id, 'gateway'), body);
  }

  @Post('gateways/:id/resume')
  @HttpCode(200)
  resumeGateway(@Param('id') id: string): Promise<GatewayRow> {
    return this.gateways.resume(entityIdOf(id, 'gateway'));
  }

  @Get('worker-tokens')
  listWorkerTokens(): Promise<WorkerTokenRow[]> {
    return this.workerTokens.list();
  }

  @Post('worker-tokens')
  @HttpCode(201)
  createWorkerToken(@Body() body: WorkerTokenCreateBody): Promise<CreatedWorkerToken> {
    return this.workerTokens.create(body.phoneId);
  }

  @Delete('worker-tokens/:id')
  @HttpCode(204)
  revokeWorkerToken(@Param('id') id: string): Promise<void> {
    return this.workerTokens.revoke(entityIdOf(id, 'worker token'));
  }

  @Get('system')
  systemOverview(): Promise<SystemOverview> {
    return this.system.overview();
  }
}
