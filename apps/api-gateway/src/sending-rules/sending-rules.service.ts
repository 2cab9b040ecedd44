import { Inject, Injectable } from '@nestjs/common';
import { Patterns, sendingRulesBody, type SendingRulesBody, type SendingRulesGetQuery, type SendingRulesUpdateCommand, type SendingRulesView } from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { parseSendingRules } from './sending-rules-request.js';

/** Whose rules these are: an API key's client, whose time zone its send windows are read in. */
export type SendingRulesOwner = Pick<ApiKeyOwner, 'clientId' | 'timezone'>;

/**
 * /smsapi/sending-rules: how a client's tasks are spread over its phones (routing mode, sticky
 * days) and the hours they may go out in (send windows), kept by dispatch. Both profiles.
 */
@Injectable()
export class SendingRulesService {
  constructor(@Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient) {}

  async get(owner: SendingRulesOwner): Promise<SendingRulesBody> {
    const query: SendingRulesGetQuery = { clientId: owner.clientId, timeZone: owner.timezone };
    return sendingRulesBody(await this.dispatch.send<SendingRulesView>(Patterns.dispatch.sendingRulesGet, query));
  }

  async update(owner: SendingRulesOwner, body: unknown): Promise<SendingRulesBody> {
    const command: SendingRulesUpdateCommand = { clientId: owner.clientId, timeZone: owner.timezone, ...parseSendingRules(body) };
    return sendingRulesBody(await this.dispatch.send<SendingRulesView>(Patterns.dispatch.sendingRulesUpdate, command));
  }
}
