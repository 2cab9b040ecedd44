import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  InvalidRequestError,
  Patterns,
  type AccountView,
  type ClientCreateCommand,
  type ClientCreated,
  type ClientListQuery,
  type ClientPage,
  type ClientSetDisabledCommand,
  type ClientView,
  type CreditsGrantCommand,
  type KeyRevokeCommand,
  type PlanSetCommand,
  type PlanView,
} from '@smsq/contracts';
import type { ClientDetail, ClientListRow, ClientRow, CreatedApiKey, Page } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientAccess } from '../shared/client-access.js';
import { ClientDirectory } from '../shared/client-directory.js';
import { clientRowOf } from '../shared/views.js';
import { UsersService } from '../users/users.service.js';
import type { ClientCreateBody, CreditsBody, PlanBody } from './dto/admin.bodies.js';

export const CLIENT_PAGE_SIZE = 50;

@Injectable()
export class AdminClientsService {
  private readonly logger = new Logger(AdminClientsService.name);

  constructor(
    private readonly directory: ClientDirectory,
    private readonly access: ClientAccess,
    private readonly users: UsersService,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
    @Inject(serviceClientToken('billing')) private readonly billing: ServiceClient,
  ) {}

  /** A page of clients with their plans and credits; without billing, the list still shows (plan and credits unknown). */
  async list(page: number, search: string | undefined): Promise<Page<ClientListRow>> {
    const query: ClientListQuery = { page, pageSize: CLIENT_PAGE_SIZE, ...(search === undefined ? {} : { search }) };
    const answer = await this.gateway.send<ClientPage>(Patterns.gateway.clientList, query);
    const accounts = await this.billing.send<AccountView[]>(Patterns.billing.accountsShow, { clientIds: answer.items.map((client) => client.id) }).catch((error: unknown) => {
      this.logger.warn(`clients listed without plans and credits: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    });
    const byClient = new Map(accounts.map((account) => [account.clientId, account]));
    const items = answer.items.map((client) => ({ ...clientRowOf(client), plan: byClient.get(client.id)?.plan ?? null, creditsRemaining: byClient.get(client.id)?.creditsRemaining ?? null }));
    return { items, total: answer.total, page: answer.page, pageSize: answer.pageSize };
  }

  /** A client, and with email and password also the user who signs in as it. */
  async create(body: ClientCreateBody): Promise<ClientRow> {
    if ((body.email === undefined) !== (body.password === undefined)) throw new InvalidRequestError('give both email and password, or neither');
    const client: ClientCreateCommand = { name: body.name, ...(body.plan ? { plan: body.plan } : {}), ...(body.timezone ? { timezone: body.timezone } : {}) };
    const clientId =
      body.email !== undefined && body.password !== undefined
        ? (await this.users.createClientUser(client, body.email, body.password)).clientId!
        : (await this.gateway.send<ClientCreated>(Patterns.gateway.clientCreate, client)).clientId;
    return clientRowOf((await this.directory.details(clientId)).client);
  }

  async detail(clientId: number): Promise<ClientDetail> {
    const { client, account } = await this.directory.details(clientId);
    const [keys, days] = await Promise.all([this.directory.keys(clientId), this.directory.chart(clientId, client.timezone)]);
    return {
      client: clientRowOf(client),
      plan: account.plan,
      dailyAllowance: account.dailyAllowance,
      phoneLimit: account.phoneLimit,
      dailyRemaining: account.dailyRemaining,
      bonusRemaining: account.bonusRemaining,
      creditsRemaining: account.creditsRemaining,
      periodEndsAt: account.periodEndsAt,
      keys,
      days,
    };
  }

  async setPlan(clientId: number, body: PlanBody): Promise<ClientDetail> {
    await this.directory.details(clientId);
    const command: PlanSetCommand = { clientId, plan: body.plan, ...(body.daily === undefined ? {} : { daily: body.daily }), ...(body.phones === undefined ? {} : { phones: body.phones }) };
    await this.billing.send<PlanView>(Patterns.billing.planSet, command);
    return this.detail(clientId);
  }

  async grantCredits(clientId: number, body: CreditsBody): Promise<ClientDetail> {
    // Billing opens an account for any id it is given, so an unknown client is refused here first.
    await this.directory.details(clientId);
    const command: CreditsGrantCommand = { clientId, amount: body.amount };
    await this.billing.send<AccountView>(Patterns.billing.creditsGrant, command);
    return this.detail(clientId);
  }

  /** Its API keys answer 401 at once while disabled; its tasks, credits and phones stay as they are. */
  async setDisabled(clientId: number, disabled: boolean): Promise<ClientDetail> {
    const command: ClientSetDisabledCommand = { clientId, disabled };
    await this.gateway.send<ClientView>(Patterns.gateway.clientSetDisabled, command);
    // This instance sees it at once; other instances within CLIENT_ACCESS_TTL_MS.
    this.access.forget(clientId);
    return this.detail(clientId);
  }

  createKey(clientId: number): Promise<CreatedApiKey> {
    return this.directory.createKey(clientId);
  }

  async revokeKey(keyId: number): Promise<void> {
    const command: KeyRevokeCommand = { keyId };
    await this.gateway.send(Patterns.gateway.keyRevoke, command);
  }
}
