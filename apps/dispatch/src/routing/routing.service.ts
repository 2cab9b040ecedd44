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
    const asked = requests.map((request) => ({ ...request, requestedPhoneId: isStoredId(request.requestedPhoneId) ? request.requestedPhoneId : undefined }));
    for (;;) {
      // Each pool is read under its lock: what is read of its phones, sticky recipients and months
      // is what the last route of the pool left, and stays so until this one commits.
      const [routing, own] = await Promise.all([this.phones.routingOf(clients, tx), this.ownPools(clients, tx)]);
      const modes = new Map<number, RoutingMode>(routing.map((one) => [one.clientId, one.mode]));
      let candidates = own;
      let planner = await this.plannerOf(candidates, asked, modes, tx);
      // Profile B: the shared pool, when a request has no usable VIP gateway that can take it.
      const probe = planner.copy();
      if (this.config.profile === 'B' && !asked.every((request) => probe.assign(request, false) !== null)) {
        candidates = [...own, ...(await this.sharedPool(tx))];
        planner = await this.plannerOf(candidates, asked, modes, tx);
      }
      const choices = asked.map((request) => planner.assign(request, fallBack) ?? this.nowhere(candidates.some((candidate) => candidate.clientId === request.clientId)));
      if (!tx) return choices;
      const chosen = [...new Set(choices.flatMap((choice) => (choice instanceof DomainError ? [] : [choice.phoneId])))];
      if ((await this.phones.lockActive(tx, chosen)).length === chosen.length) return choices;
    }
  }

  /** The requests' sticky recipients and the capped candidates' months, as a planner of these candidates. */
  private async plannerOf(candidates: RouteCandidate[], requests: readonly RouteRequest[], modes: ReadonlyMap<number, RoutingMode>, tx?: DbTransaction): Promise<RoutePlanner> {
    const kept: ClientRecipient[] = requests.flatMap(({ clientId, recipient }) => (recipient !== undefined && modes.get(clientId) === 'sticky' ? [{ clientId, recipient }] : []));
    const numbers = [...new Set(requests.flatMap((request) => (request.recipient === undefined ? [] : [request.recipient])))];
    const capped = candidates.filter((candidate) => candidate.cap !== null).map((candidate) => candidate.id);
    const [known, sticky] = await Promise.all([this.phones.knownRecipients(capped, numbers, tx), this.phones.stickyPhonesOf(kept, tx)]);
    return new RoutePlanner(this.config.profile, candidates, modes, known, sticky);
  }

  /**
   * Each client's own pool: its own phones (Profile A), its VIP gateways (Profile B), locked and
   * read together (the read runs once the lock is held). A client's own phones are a pool too:
   * `first` sends its creates to one phone, whose row lock serialises them anyway.
   */
  private async ownPools(clients: readonly number[], tx?: DbTransaction): Promise<RouteCandidate[]> {
    // The lock goes out first: statements of a transaction run in the order they are sent.
    const locked = tx && this.phones.lockPools(tx, clients);
    const read = this.config.profile === 'A' ? this.phones.activeOwnPhones(clients, tx) : this.phones.activeGateways(clients, tx);
    const [, candidates] = await Promise.all([locked, read]);
    return candidates;
  }

  private async sharedPool(tx?: DbTransaction): Promise<RouteCandidate[]> {
    const [, shared] = await Promise.all([tx && this.phones.lockPools(tx, [null]), this.phones.activeGateways([null], tx)]);
    return shared;
  }

  /** `capped`: the client has phones, but each has reached its monthly recipients cap and this number is new to it. */
  private nowhere(capped: boolean): DomainError {
    const cap = 'every one has reached its monthly recipients cap and this number is new to it';
    return this.config.profile === 'A'
      ? new DomainError('no_active_phone', capped ? `no phone of this client can take this recipient: ${cap}` : 'no active phone is registered for this client')
      : new DomainError('no_active_gateway', capped ? `no gateway can take this recipient: ${cap}` : 'no active gateway is available');
  }
}
