import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, Patterns, type GatewayCreateCommand, type PhoneDetails, type PhoneListQuery, type PhoneSetActiveCommand, type PhoneView } from '@smsq/contracts';
import type { GatewayRow } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { DashboardConfig } from '../config/dashboard-config.js';
import { gatewayRowOf } from '../shared/views.js';
import type { GatewayCreateBody } from './dto/admin.bodies.js';

/** Pooled gateways exist in Profile B only; in Profile A these pages do not. */
@Injectable()
export class AdminGatewaysService {
  constructor(
    private readonly config: DashboardConfig,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async list(): Promise<GatewayRow[]> {
    return (await this.gateways()).map(gatewayRowOf);
  }

  async create(body: GatewayCreateBody): Promise<GatewayRow> {
    this.requireProfileB();
    const command: GatewayCreateCommand = { name: body.name, url: body.url, ...(body.clientId === undefined ? {} : { clientId: body.clientId }) };
    const created = await this.dispatch.send<PhoneView>(Patterns.dispatch.gatewayCreate, command);
    return { id: created.id, name: created.name, url: created.url, clientId: created.clientId, active: created.active, lastAssignedAt: null, lastSeenAt: null };
  }

  async setActive(phoneId: number, active: boolean): Promise<GatewayRow> {
    this.requireProfileB();
    const command: PhoneSetActiveCommand = { phoneId, kind: 'gateway', active };
    await this.dispatch.send(Patterns.dispatch.phoneSetActive, command);
    const gateway = (await this.gateways()).find((candidate) => candidate.id === phoneId);
    if (!gateway) throw new NotFoundError('gateway');
    return gatewayRowOf(gateway);
  }

  private gateways(): Promise<PhoneDetails[]> {
    this.requireProfileB();
    const query: PhoneListQuery = { kind: 'gateway' };
    return this.dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, query);
  }

  private requireProfileB(): void {
    if (this.config.profile !== 'B') throw new NotFoundError('page (gateways exist in Profile B only)');
  }
}
