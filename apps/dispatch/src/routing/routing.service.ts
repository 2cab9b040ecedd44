import { Injectable } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { isStoredId } from '../database/stored-id.js';
import type { RouteRequest } from './route-request.js';
import { RoutingRepository } from './routing.repository.js';

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
   * The phone a task of this request would go to now; throws the contract's error when there is
   * none. Given a transaction, the choice stays locked until it commits: the task stored in it
   * records the assignment (`TasksRepository.insert`), so least-recently-used really takes turns.
   */
  choose(request: RouteRequest, tx?: DbTransaction): Promise<number> {
    return this.config.profile === 'A' ? this.chooseOwnPhone(request, tx) : this.chooseGateway(request, tx);
  }

  private async chooseOwnPhone({ clientId, requestedPhoneId }: RouteRequest, tx?: DbTransaction): Promise<number> {
    const requested = isStoredId(requestedPhoneId) ? await this.phones.activeOwnPhone(clientId, requestedPhoneId, tx) : null;
    const phoneId = requested ?? (await this.phones.firstActiveOwnPhone(clientId, tx));
    if (phoneId === null) throw new DomainError('no_active_phone', 'no active phone is registered for this client');
    return phoneId;
  }

  private async chooseGateway({ clientId, requestedPhoneId }: RouteRequest, tx?: DbTransaction): Promise<number> {
    const requested = isStoredId(requestedPhoneId) ? await this.phones.activeVipGateway(clientId, requestedPhoneId, tx) : null;
    const gatewayId =
      requested ??
      (await this.phones.leastRecentlyUsedGateway(clientId, tx)) ??
      (await this.phones.leastRecentlyUsedGateway(null, tx));
    if (gatewayId === null) throw new DomainError('no_active_gateway', 'no active gateway is available');
    return gatewayId;
  }
}
