import { Inject, Injectable } from '@nestjs/common';
import {
  InvalidRequestError,
  NotFoundError,
  Patterns,
  type AccountOpenCommand,
  type AccountView,
  type ClientCreateCommand,
  type ClientCreated,
  type ClientDetails,
  type ClientListQuery,
  type ClientPage,
  type ClientSetDisabledCommand,
  type ClientSetTimezoneCommand,
  type ClientTimezoneChangedCommand,
  type Ok,
  type ClientView,
} from '@smsq/contracts';
import { isTimeZone, ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import { ApiKeysService } from '../identity/api-keys.service.js';
import { isStoredId } from '../identity/stored-id.js';
import { ClientsRepository, type ClientSearch } from './clients.repository.js';

@Injectable()
export class ClientsService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly clients: ClientsRepository,
    private readonly keys: ApiKeysService,
    @Inject(serviceClientToken('billing')) private readonly billing: ServiceClient,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  /** A client and its credit account; billing opens accounts idempotently, so a retry is safe. */
  async create(command: ClientCreateCommand): Promise<ClientCreated> {
    const timezone = command.timezone ?? this.config.defaultTimezone;
    await this.requireUsableZone(timezone);
    const clientId = await this.clients.insert(command.name, timezone);
    const open: AccountOpenCommand = { clientId, plan: command.plan };
    await this.billing.send<AccountView>(Patterns.billing.accountOpen, open);
    return { clientId };
  }

  async show(clientId: number): Promise<ClientDetails> {
    const client = await this.clients.find(clientId);
    if (!client) throw new NotFoundError('client');
    const account = await this.billing.send<AccountView>(Patterns.billing.accountShow, { clientId });
    return { client, account };
  }

  /** Disables (its API keys answer 401 at once on every gateway) or enables a client; its tasks, credits and phones are untouched. */
  async setDisabled(command: ClientSetDisabledCommand): Promise<ClientView> {
    if (!isStoredId(command.clientId) || !(await this.clients.setDisabled(command.clientId, command.disabled))) throw new NotFoundError('client');
    await this.keys.clientDisabledChanged(command.clientId, command.disabled);
    return (await this.clients.find(command.clientId))!;
  }

  /** The client alone, without its credit account (which `show` reads, and may refill, in billing). */
  async get(clientId: number): Promise<ClientView> {
    const client = isStoredId(clientId) ? await this.clients.find(clientId) : undefined;
    if (!client) throw new NotFoundError('client');
    return client;
  }

  /**
   * A new time zone: the keys' cached owners everywhere, and the zone dispatch reads the client's
   * local times in (their instants stay), follow at once. Each step is repeatable, so a command that
   * failed half-way (503) is simply repeated; the change's number lets dispatch ignore an older
   * change that reaches it after a newer one.
   */
  async setTimezone(command: ClientSetTimezoneCommand): Promise<ClientView> {
    await this.requireUsableZone(command.timezone);
    const version = isStoredId(command.clientId) ? await this.clients.setTimezone(command.clientId, command.timezone) : null;
    if (version === null) throw new NotFoundError('client');
    await this.keys.clientChanged(command.clientId);
    const changed: ClientTimezoneChangedCommand = { clientId: command.clientId, timezone: command.timezone, version };
    await this.dispatch.send<Ok>(Patterns.dispatch.clientTimezoneChanged, changed);
    return (await this.clients.find(command.clientId))!;
  }

  /** A zone both Node and Postgres know, as both compute a client's local times. */
  private async requireUsableZone(timezone: string): Promise<void> {
    if (!isTimeZone(timezone) || !(await this.clients.isKnownTimeZone(timezone))) throw new InvalidRequestError(`${timezone} is not an IANA time zone`);
  }

  async requireExisting(clientId: number): Promise<void> {
    if (!(await this.clients.exists(clientId))) throw new NotFoundError('client');
  }

  /** For an admin, newest first; the search matches part of the name, or the id when it is a number. */
  async list(query: ClientListQuery): Promise<ClientPage> {
    const search = searchOf(query.search);
    const skip = (query.page - 1) * query.pageSize;
    const { clients, total } = await this.clients.page(search, Number.isSafeInteger(skip) ? skip : Number.MAX_SAFE_INTEGER, query.pageSize);
    return { items: clients, total, page: query.page, pageSize: query.pageSize };
  }
}

function searchOf(raw: string | undefined): ClientSearch {
  const namePart = raw?.trim();
  if (!namePart) return {};
  return /^\d{1,10}$/.test(namePart) ? { namePart, id: Number(namePart) } : { namePart };
}
