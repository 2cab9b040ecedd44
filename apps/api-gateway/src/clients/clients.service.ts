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
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig, isTimeZone } from '../config/gateway-config.js';
import { ClientsRepository, type ClientSearch } from './clients.repository.js';

@Injectable()
export class ClientsService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly clients: ClientsRepository,
    @Inject(serviceClientToken('billing')) private readonly billing: ServiceClient,
  ) {}

  /** A client and its credit account; billing opens accounts idempotently, so a retry is safe. */
  async create(command: ClientCreateCommand): Promise<ClientCreated> {
    const timezone = command.timezone ?? this.config.defaultTimezone;
    if (!isTimeZone(timezone)) throw new InvalidRequestError(`${timezone} is not an IANA time zone`);
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
