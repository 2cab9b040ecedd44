import { Injectable } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { isStoredId } from '../database/stored-id.js';
import { GatewayPools } from './gateway-pools.js';
import type { RouteRequest } from './route-request.js';
import { RoutingRepository, type RouteCandidate } from './routing.repository.js';

/** The phone a task goes to, or the contract's error when it has none. */
export type RouteChoice = number | DomainError;

/**
 * Which phone or gateway a task goes to (DESIGN §2, §3). A requested phone that is not usable,
 * whatever the reason, is ignored exactly as if none had been asked for.
 */
@Injectable()
export class RoutingService {
  constructor(
    private readonly config: DispatchConfig,
    private readonly phones: RoutingRepository,
  ) {}

  /**
   * The phone of each request, in order, as if they were routed one after another. Given a
   * transaction, the choices stay locked until it commits: the tasks stored in it record their
   * assignments (`TasksRepository.insertMany`), so least-recently-used really takes turns. A
   * phone disabled while it was being chosen is left out and the requests are routed again.
   */
  async chooseMany(requests: readonly RouteRequest[], tx?: DbTransaction): Promise<RouteChoice[]> {
    if (requests.length === 0) return [];
    for (;;) {
      const choices = this.config.profile === 'A' ? await this.chooseOwnPhones(requests, tx) : await this.chooseGateways(requests, tx);
      if (!tx) return choices;
      const chosen = [...new Set(choices.filter((choice) => typeof choice === 'number'))];
      if ((await this.phones.lockActive(tx, chosen)).length === chosen.length) return choices;
    }
  }

  private async chooseOwnPhones(requests: readonly RouteRequest[], tx?: DbTransaction): Promise<RouteChoice[]> {
    const phones = await this.phones.activeOwnPhones(clientsOf(requests), tx);
    return requests.map(({ clientId, requestedPhoneId }) => {
      const own = phones.filter((phone) => phone.clientId === clientId).map((phone) => phone.id);
      const phoneId = isStoredId(requestedPhoneId) && own.includes(requestedPhoneId) ? requestedPhoneId : own[0];
      return phoneId ?? new DomainError('no_active_phone', 'no active phone is registered for this client');
    });
  }

  /** The clients' VIP pools first; the shared pool is locked and read only when a client has no VIP gateway. */
  private async chooseGateways(requests: readonly RouteRequest[], tx?: DbTransaction): Promise<RouteChoice[]> {
    const clients = clientsOf(requests);
    const gateways: RouteCandidate[] = [];
    if (tx) await this.phones.lockPools(tx, clients);
    gateways.push(...(await this.phones.activeGateways(clients, tx)));
    if (clients.some((clientId) => !gateways.some((gateway) => gateway.clientId === clientId))) {
      if (tx) await this.phones.lockPools(tx, [null]);
      gateways.push(...(await this.phones.activeGateways([null], tx)));
    }
    const pools = new GatewayPools(gateways);
    return requests.map(
      ({ clientId, requestedPhoneId }) =>
        pools.assign(clientId, isStoredId(requestedPhoneId) ? requestedPhoneId : undefined) ??
        new DomainError('no_active_gateway', 'no active gateway is available'),
    );
  }
}

function clientsOf(requests: readonly RouteRequest[]): number[] {
  return [...new Set(requests.map((request) => request.clientId))];
}
