import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError, Patterns, type GatewayCreateCommand, type PhoneDetails, type PhoneLimitsCommand, type PhoneListQuery, type PhoneNumberSetCommand, type PhoneResumeCommand, type PhoneSetActiveCommand, type PhoneView } from '@smsq/contracts';
import type { GatewayRow } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { DashboardConfig } from '../config/dashboard-config.js';
import { ClientDirectory } from '../shared/client-directory.js';
import { gatewayRowOf } from '../shared/views.js';
import { SIM_LIMIT_NAMES, setsSimLimits, simLimitsOf } from '../shared/sim-limits.js';
import type { GatewayCreateBody, GatewayUpdateBody } from './dto/admin.bodies.js';

/** Pooled gateways exist in Profile B only; in Profile A these pages do not. */
@Injectable()
export class AdminGatewaysService {
  constructor(
    private readonly config: DashboardConfig,
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  async list(): Promise<GatewayRow[]> {
    return this.rowsOf(await this.gateways());
  }

  async create(body: GatewayCreateBody): Promise<GatewayRow> {
    this.requireProfileB();
    const command: GatewayCreateCommand = { name: body.name, url: body.url, ...(body.clientId === undefined ? {} : { clientId: body.clientId }) };
    const created = await this.dispatch.send<PhoneView>(Patterns.dispatch.gatewayCreate, command);
    const [row] = await this.rowsOf([{ ...created, lastAssignedAt: null, sentToday: 0, partsToday: 0, recipientsThisMonth: 0, waitingTasks: 0 }]);
    return row!;
  }

  /** Enables or disables a gateway, records its number, sets its SIM limits; its days are the service's (SMSQ_TIMEZONE). */
  async update(phoneId: number, change: GatewayUpdateBody): Promise<GatewayRow> {
    this.requireProfileB();
    if (change.active === undefined && change.number === undefined && !setsSimLimits(change)) throw new InvalidRequestError(`give active, number or a limit (${SIM_LIMIT_NAMES})`);
    if (change.number !== undefined) {
      const setNumber: PhoneNumberSetCommand = { phoneId, kind: 'gateway', number: change.number?.trim() || null };
      await this.gateway.send(Patterns.gateway.phoneNumberSet, setNumber);
    }
    if (setsSimLimits(change)) {
      const limits: PhoneLimitsCommand = { phoneId, kind: 'gateway', ...simLimitsOf(change) };
      await this.dispatch.send(Patterns.dispatch.phoneSetLimits, limits);
    }
    if (change.active !== undefined) {
      const command: PhoneSetActiveCommand = { phoneId, kind: 'gateway', active: change.active };
      await this.dispatch.send(Patterns.dispatch.phoneSetActive, command);
    }
    return this.row(phoneId);
  }

  /** Lifts a gateway's pause (the carrier refused for volume) at once; one not paused stays as it is. */
  async resume(phoneId: number): Promise<GatewayRow> {
    this.requireProfileB();
    const command: PhoneResumeCommand = { phoneId, kind: 'gateway' };
    await this.dispatch.send(Patterns.dispatch.phoneResume, command);
    return this.row(phoneId);
  }

  private async row(phoneId: number): Promise<GatewayRow> {
    const gateway = (await this.gateways()).find((candidate) => candidate.id === phoneId);
    if (!gateway) throw new NotFoundError('gateway');
    const [row] = await this.rowsOf([gateway]);
    return row!;
  }

  /** Each row in its VIP client's time zone; a shared gateway's, or one whose client is gone, in the service's. */
  private async rowsOf(gateways: PhoneDetails[]): Promise<GatewayRow[]> {
    const clientIds = [...new Set(gateways.flatMap((gateway) => (gateway.clientId === null ? [] : [gateway.clientId])))];
    const zones = new Map(await Promise.all(clientIds.map(async (clientId) => [clientId, await this.zoneOf(clientId)] as const)));
    return gateways.map((gateway) => gatewayRowOf(gateway, (gateway.clientId === null ? undefined : zones.get(gateway.clientId)) ?? this.config.defaultTimeZone));
  }

  private async zoneOf(clientId: number): Promise<string> {
    try {
      return await this.directory.timeZoneOf(clientId);
    } catch (error) {
      if (error instanceof NotFoundError) return this.config.defaultTimeZone;
      throw error;
    }
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
