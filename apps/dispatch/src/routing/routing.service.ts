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
   * The phone of each request, in order, as if they were routed one after another: among
   * enabled phones in contact with room left today first, else as DESIGN §2–§3 say whatever their
   * contact (the task then waits for its phone). Given a transaction, the choices stay locked
   * until it commits: the tasks stored in it record their assignments
   * (`TasksRepository.insertMany`), so least-recently-used really takes turns. A phone disabled
   * while it was being chosen is left out and the requests are routed again.
   */
  chooseMany(requests: readonly RouteRequest[], tx?: DbTransaction): Promise<RouteChoice[]> {
    return this.route(requests, true, tx);
  }

  /**
   * Like `chooseMany`, but only ever to a usable phone (enabled, in contact, room left today) that
   * is not the request's `avoidPhoneId`; null where there is none. For tasks that already have a
   * phone and move only if there is a better one: failover and retries.
   */
  async chooseUsable(requests: readonly RouteRequest[], tx: DbTransaction): Promise<Array<number | null>> {
    const choices = await this.route(requests, false, tx);
    return choices.map((choice) => (typeof choice === 'number' ? choice : null));
  }

  /** Records the assignments of tasks moved to these phones, in order, as new tasks' are. */
  recordAssignments(tx: DbTransaction, phoneIds: readonly number[]): Promise<void> {
    return this.phones.recordAssignments(tx, phoneIds);
  }

  private async route(requests: readonly RouteRequest[], fallBack: boolean, tx?: DbTransaction): Promise<RouteChoice[]> {
    if (requests.length === 0) return [];
    for (;;) {
      const choices = this.config.profile === 'A' ? await this.chooseOwnPhones(requests, fallBack, tx) : await this.chooseGateways(requests, fallBack, tx);
      if (!tx) return choices;
      const chosen = [...new Set(choices.filter((choice) => typeof choice === 'number'))];
      if ((await this.phones.lockActive(tx, chosen)).length === chosen.length) return choices;
    }
  }

  private async chooseOwnPhones(requests: readonly RouteRequest[], fallBack: boolean, tx?: DbTransaction): Promise<RouteChoice[]> {
    const phones = await this.phones.activeOwnPhones(clientsOf(requests), tx);
    return requests.map(({ clientId, requestedPhoneId, avoidPhoneId }) => {
      const own = phones.filter((phone) => phone.clientId === clientId);
      const chosen =
        own.find((phone) => isStoredId(requestedPhoneId) && phone.id === requestedPhoneId) ??
        own.find((phone) => phone.usable && phone.id !== avoidPhoneId) ??
        (fallBack ? own[0] : undefined);
      return chosen?.id ?? new DomainError('no_active_phone', 'no active phone is registered for this client');
    });
  }

  /** The clients' VIP pools first; the shared pool is locked and read only when a client has no usable VIP gateway. */
  private async chooseGateways(requests: readonly RouteRequest[], fallBack: boolean, tx?: DbTransaction): Promise<RouteChoice[]> {
    const clients = clientsOf(requests);
    // Each pool's lock and its read go out together; the read runs once the lock is held.
    const [, vip] = await Promise.all([tx && this.phones.lockPools(tx, clients), this.phones.activeGateways(clients, tx)]);
    const gateways: RouteCandidate[] = [...vip];
    if (clients.some((clientId) => !gateways.some((gateway) => gateway.clientId === clientId && gateway.usable))) {
      const [, shared] = await Promise.all([tx && this.phones.lockPools(tx, [null]), this.phones.activeGateways([null], tx)]);
      gateways.push(...shared);
    }
    const pools = new GatewayPools(gateways);
    return requests.map(
      (request) =>
        pools.assign({ ...request, requestedPhoneId: isStoredId(request.requestedPhoneId) ? request.requestedPhoneId : undefined }, fallBack) ??
        new DomainError('no_active_gateway', 'no active gateway is available'),
    );
  }
}

function clientsOf(requests: readonly RouteRequest[]): number[] {
  return [...new Set(requests.map((request) => request.clientId))];
}
