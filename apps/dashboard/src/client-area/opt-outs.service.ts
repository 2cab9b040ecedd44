import { Inject, Injectable } from '@nestjs/common';
import {
  InvalidRequestError,
  OPT_IN_KEYWORDS,
  OPT_OUT_KEYWORDS,
  Patterns,
  type OptOutListQuery,
  type OptOutPage as DispatchOptOutPage,
  type OptOutRemoveFromDashboard,
  type OptOutsAddFromDashboard,
  type OptOutSettingsUpdate,
  type OptOutSettingsView,
  withoutSeparators,
} from '@smsq/contracts';
import type { OptOutPage, OptOutSettings, OptOutsAdded } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import type { OptOutSettingsBody } from './dto/opt-outs.body.js';

const DEFAULT_LIMIT = 50;

/**
 * The client's opt-out list: read from dispatch, which keeps it; numbers added or removed go
 * through the gateway, which reads them exactly as create-task reads a recipient.
 */
@Injectable()
export class OptOutsService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  /** `limit` 1–1000 (50 when absent); `search` the digits of a number, separators ignored. */
  async list(clientId: number, raw: { limit?: string; cursor?: string; search?: string }): Promise<OptOutPage> {
    const limit = raw.limit === undefined ? DEFAULT_LIMIT : Number(raw.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new InvalidRequestError('limit must be a whole number from 1 to 1000');
    const search = raw.search === undefined ? undefined : withoutSeparators(raw.search);
    if (search !== undefined && !/^\+?\d{1,15}$/.test(search)) throw new InvalidRequestError('search must be digits of a phone number');
    const query: OptOutListQuery = { clientId, limit, ...(raw.cursor ? { cursor: raw.cursor } : {}), ...(search ? { search } : {}) };
    const [page, timeZone] = await Promise.all([this.dispatch.send<DispatchOptOutPage>(Patterns.dispatch.optOutList, query), this.directory.timeZoneOf(clientId)]);
    return { items: page.items.map((item) => ({ ...item, timeZone })), nextCursor: page.nextCursor };
  }

  async add(clientId: number, numbers: string[]): Promise<OptOutsAdded> {
    const command: OptOutsAddFromDashboard = { clientId, numbers };
    const { added, cancelled } = await this.gateway.send<OptOutsAdded>(Patterns.gateway.optOutsAdd, command);
    return { added, cancelled };
  }

  async remove(clientId: number, number: string): Promise<void> {
    const command: OptOutRemoveFromDashboard = { clientId, number };
    await this.gateway.send(Patterns.gateway.optOutRemove, command);
  }

  async settings(clientId: number): Promise<OptOutSettings> {
    return settingsOf(await this.dispatch.send<OptOutSettingsView>(Patterns.dispatch.optOutSettingsGet, { clientId }));
  }

  async updateSettings(clientId: number, body: OptOutSettingsBody): Promise<OptOutSettings> {
    const update: OptOutSettingsUpdate = { clientId, optOutWords: body.optOutWords, optInWords: body.optInWords, cancelQueued: body.cancelQueued };
    return settingsOf(await this.dispatch.send<OptOutSettingsView>(Patterns.dispatch.optOutSettingsUpdate, update));
  }
}

function settingsOf(view: OptOutSettingsView): OptOutSettings {
  return { ...view, standardOptOut: [...OPT_OUT_KEYWORDS], standardOptIn: [...OPT_IN_KEYWORDS] };
}
