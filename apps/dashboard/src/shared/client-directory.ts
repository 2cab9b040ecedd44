import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type ClientDetails, type ClientSetTimezoneCommand, type ClientShowQuery, type ClientView, type DailyTaskCount, type KeyCreateCommand, type KeyCreated, type KeyListQuery, type KeyView, type TaskDailyStatsQuery } from '@smsq/contracts';
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

  /** Reads of one client already on their way: requests that arrive together share one answer. */
  private readonly inFlight = new Map<number, Promise<ClientView>>();

  /** The client with its plan and credits; an unknown client is not_found. */
  details(clientId: number): Promise<ClientDetails> {
    const query: ClientShowQuery = { clientId };
    return this.gateway.send<ClientDetails>(Patterns.gateway.clientShow, query);
  }

  /**
   * The client alone (its zone, whether it is disabled), from the gateway's own row: the full
   * `details` read (and may refill) its billing account, which a page refreshed every few seconds
   * must not do each time. Never kept past the answer: a time zone changed from any dashboard or
   * the admin command line counts from the next request on (whether it is disabled is kept a few
   * seconds by ClientAccess).
   */
  client(clientId: number): Promise<ClientView> {
    const known = this.inFlight.get(clientId);
    if (known) return known;
    const query: ClientShowQuery = { clientId };
    const asked = this.gateway.send<ClientView>(Patterns.gateway.clientGet, query).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, asked);
    return asked;
  }

  /** The zone the client's times are shown in, and its scheduled times are written in. */
  async timeZoneOf(clientId: number): Promise<string> {
    return (await this.client(clientId)).timezone;
  }

  async setTimeZone(clientId: number, timezone: string): Promise<ClientView> {
    const command: ClientSetTimezoneCommand = { clientId, timezone };
    return this.gateway.send<ClientView>(Patterns.gateway.clientSetTimezone, command);
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
