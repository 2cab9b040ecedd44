import { Injectable } from '@nestjs/common';
import { DomainError, type RoutingMode } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { isStoredId } from '../database/stored-id.js';
import type { RouteRequest } from './route-request.js';
import { RoutePlanner, type Route } from './route-planner.js';
import { RoutingRepository, type Assignment, type ClientRecipient, type RouteCandidate } from './routing.repository.js';

export type { Route } from './route-planner.js';

/** Where a task goes, or the contract's error when it has nowhere. */
export type RouteChoice = Route | DomainError;

/**
 * Which phone or gateway a task goes to (DESIGN §2, §3, and the client's routing mode: `RoutePlanner`).
 * A requested phone that is not usable, whatever the reason, is ignored exactly as if none had been asked for.
 */
@Injectable()
export class RoutingService {
  constructor(
    private readonly config: DispatchConfig,
    private readonly phones: RoutingRepository,
  ) {}

  /**
   * The route of each request, in order, as if they were routed one after another: to a usable
   * phone (enabled, in contact, not paused, room left today) first, else as DESIGN §2–§3 say
   * whatever their contact (the task then waits for its phone). Given a transaction, the pools
   * read and the phones chosen stay locked until it commits: the tasks stored in it record their
   * assignments (`TasksRepository.insertMany`), so least-recently-used takes turns, a sticky
   * recipient is on one phone and a cap is never passed.
   * A phone disabled while it was being chosen is left out and the requests are routed again.
   */
  chooseMany(requests: readonly RouteRequest[], tx?: DbTransaction): Promise<RouteChoice[]> {
    return this.route(requests, true, tx);
  }

  /**
   * Like `chooseMany`, but only ever to a usable phone that is not the request's `avoidPhoneId`;
   * null where there is none. For tasks that already have a phone and move only if there is a
   * better one: failover and retries.
   */
  async chooseUsable(requests: readonly RouteRequest[], tx: DbTransaction): Promise<Array<Route | null>> {
    const choices = await this.route(requests, false, tx);
    return choices.map((choice) => (choice instanceof DomainError ? null : choice));
  }

  /** Records the assignments of tasks moved to these phones, in order, as new tasks' are. */
  recordAssignments(tx: DbTransaction, assignments: readonly Assignment[]): Promise<void> {
    return this.phones.recordAssignments(tx, assignments);
  }

  private async route(requests: readonly RouteRequest[], fallBack: boolean, tx?: DbTransaction): Promise<RouteChoice[]> {
    if (requests.length === 0) return [];
    const clients = [...new Set(requests.map((request) => request.clientId))];
    for (;;) {
      // Under the pools' locks (`candidatesOf`): what is read here of sticky recipients and of
      // months is what the last route of these pools left, and stays so until this one commits.
      const [routing, candidates] = await Promise.all([this.phones.routingOf(clients, tx), this.candidatesOf(clients, tx)]);
      const modes = new Map<number, RoutingMode>(routing.map((one) => [one.clientId, one.mode]));
      const keptRecipients: ClientRecipient[] = requests.flatMap(({ clientId, recipient }) => (recipient !== undefined && modes.get(clientId) === 'sticky' ? [{ clientId, recipient }] : []));
      const numbers = [...new Set(requests.flatMap((request) => (request.recipient === undefined ? [] : [request.recipient])))];
      const [known, kept] = await Promise.all([
        this.phones.knownRecipients(
          candidates.filter((candidate) => candidate.cap !== null).map((candidate) => candidate.id),
          numbers,
          tx,
        ),
        this.phones.stickyPhonesOf(keptRecipients, tx),
      ]);
      const planner = new RoutePlanner(this.config.profile, candidates, modes, known, kept);
      const choices = requests.map(
        (request) =>
          planner.assign({ ...request, requestedPhoneId: isStoredId(request.requestedPhoneId) ? request.requestedPhoneId : undefined }, fallBack) ??
          this.nowhere(candidates.some((candidate) => candidate.clientId === request.clientId)),
      );
      if (!tx) return choices;
      const chosen = [...new Set(choices.flatMap((choice) => (choice instanceof DomainError ? [] : [choice.phoneId])))];
      if ((await this.phones.lockActive(tx, chosen)).length === chosen.length) return choices;
    }
  }

  /**
   * Profile A: the clients' own phones. Profile B: their VIP pools, and the shared pool only when a
   * client has no usable VIP gateway. Each pool's lock and its read go out together; the read runs
   * once the lock is held, so concurrent routes see each other's assignments (least recently used,
   * sticky recipients, caps). A client's own phones are its pool: `first` sends its creates to one
   * phone, whose row lock serialises them anyway.
   */
  private async candidatesOf(clients: readonly number[], tx?: DbTransaction): Promise<RouteCandidate[]> {
    if (this.config.profile === 'A') {
      const [, own] = await Promise.all([tx && this.phones.lockPools(tx, clients), this.phones.activeOwnPhones(clients, tx)]);
      return own;
    }
    const [, vip] = await Promise.all([tx && this.phones.lockPools(tx, clients), this.phones.activeGateways(clients, tx)]);
    // A capped VIP gateway may have no room for a new recipient: the shared pool is then its fallback.
    const vipServesAll = clients.every((clientId) => vip.some((gateway) => gateway.clientId === clientId && gateway.usable)) && vip.every((gateway) => gateway.cap === null);
    if (vipServesAll) return vip;
    const [, shared] = await Promise.all([tx && this.phones.lockPools(tx, [null]), this.phones.activeGateways([null], tx)]);
    return [...vip, ...shared];
  }

  /** `capped`: the client has phones, but each has reached its monthly recipients cap and this number is new to it. */
  private nowhere(capped: boolean): DomainError {
    const cap = 'every one has reached its monthly recipients cap and this number is new to it';
    return this.config.profile === 'A'
      ? new DomainError('no_active_phone', capped ? `no phone of this client can take this recipient: ${cap}` : 'no active phone is registered for this client')
      : new DomainError('no_active_gateway', capped ? `no gateway can take this recipient: ${cap}` : 'no active gateway is available');
  }
}
