import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type ClientDetails, type ClientShowQuery, type DailyTaskCount, type KeyCreateCommand, type KeyCreated, type KeyListQuery, type KeyView, type TaskDailyStatsQuery } from '@smsq/contracts';
import type { ApiKeyRow, CreatedApiKey, Overview } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { DashboardConfig } from '../config/dashboard-config.js';
import { apiKeyRowOf, createdApiKeyOf, daysOf } from './views.js';

/** The charts cover the last 30 days, today included. */
export const CHART_DAYS = 30;

/** What both a client's own pages and an admin's pages read about one client, from the gateway and dispatch. */
@Injectable()
export class ClientDirectory {
  constructor(
    private readonly config: DashboardConfig,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  private readonly timeZones = new Map<number, string>();

  /** The client with its plan and credits; an unknown client is not_found. */
  details(clientId: number): Promise<ClientDetails> {
    const query: ClientShowQuery = { clientId };
    return this.gateway.send<ClientDetails>(Patterns.gateway.clientShow, query);
  }

  /**
   * The zone the client's times are shown in, and its scheduled times are written in. A client's
   * zone is set when it is created and never changes, so it is asked for once: the full client
   * answer reads (and may refill) its billing account, which a page refreshed every few seconds
   * must not do each time.
   */
  async timeZoneOf(clientId: number): Promise<string> {
    const known = this.timeZones.get(clientId);
    if (known !== undefined) return known;
    const timeZone = (await this.details(clientId)).client.timezone;
    this.timeZones.set(clientId, timeZone);
    return timeZone;
  }

  async chart(clientId: number, timeZone: string): Promise<Overview['days']> {
    const query: TaskDailyStatsQuery = { clientId, days: CHART_DAYS, timeZone };
    return daysOf(await this.dispatch.send<DailyTaskCount[]>(Patterns.dispatch.taskDailyStats, query));
  }

  async keys(clientId: number): Promise<ApiKeyRow[]> {
    const query: KeyListQuery = { clientId };
    return (await this.gateway.send<KeyView[]>(Patterns.gateway.keyList, query)).map(apiKeyRowOf);
  }

  async createKey(clientId: number, name?: string): Promise<CreatedApiKey> {
    const command: KeyCreateCommand = { clientId, ...(name?.trim() ? { name: name.trim() } : {}) };
    return createdApiKeyOf(await this.gateway.send<KeyCreated>(Patterns.gateway.keyCreate, command), this.config.profile, this.config.publicApiUrl);
  }
}
