import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type SmppBindAnswer, type SmppBindRefusal, type SmppCredentialAuthenticateQuery } from '@smsq/contracts';
import { serviceClientToken, type ServiceClient } from '@smsq/platform';
import { CommandStatus } from '../protocol/index.js';
import type { BindOutcome } from '../sessions/session-services.js';

/** Each refused bind as the status that tells the peer what to fix. */
const STATUS_OF_REFUSAL: Record<SmppBindRefusal, number> = {
  unknown_system_id: CommandStatus.ESME_RINVSYSID,
  wrong_password: CommandStatus.ESME_RINVPASWD,
  revoked: CommandStatus.ESME_RBINDFAIL,
  client_disabled: CommandStatus.ESME_RBINDFAIL,
};

/** A bind's credentials, checked by the gateway, which keeps them as it keeps API keys. */
@Injectable()
export class BindAuthenticator {
  constructor(@Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient) {}

  async authenticate(systemId: string, password: string): Promise<BindOutcome> {
    // SMPP's own limits: a longer one could never have been issued.
    if (systemId.length === 0 || systemId.length > 15) return { ok: false, status: CommandStatus.ESME_RINVSYSID };
    if (password.length > 8) return { ok: false, status: CommandStatus.ESME_RINVPASWD };
    const query: SmppCredentialAuthenticateQuery = { systemId, password };
    const answer = await this.gateway.send<SmppBindAnswer>(Patterns.gateway.smppCredentialAuthenticate, query);
    return answer.ok ? { ok: true, identity: answer.identity } : { ok: false, status: STATUS_OF_REFUSAL[answer.refusal] };
  }
}
