import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type SendingRulesGetQuery, type SendingRulesUpdateCommand, type SendingRulesView } from '@smsq/contracts';
import type { SendingRules } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import { sendingRulesOf } from '../shared/views.js';
import type { SendingRulesBody } from './dto/sending-rules.body.js';

/**
 * A client's routing mode and send windows, kept by dispatch. The windows are read in the
 * client's zone as the gateway has it now, so a zone changed anywhere counts from the next read.
 */
@Injectable()
export class SendingRulesService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async rules(clientId: number): Promise<SendingRules> {
    const query: SendingRulesGetQuery = { clientId, timeZone: await this.directory.timeZoneOf(clientId) };
    return sendingRulesOf(await this.dispatch.send<SendingRulesView>(Patterns.dispatch.sendingRulesGet, query));
  }

  async update(clientId: number, change: SendingRulesBody): Promise<SendingRules> {
    const command: SendingRulesUpdateCommand = {
      clientId,
      timeZone: await this.directory.timeZoneOf(clientId),
      routingMode: change.routingMode,
      stickyDays: change.stickyDays,
      sendWindows: change.sendWindows.map((window) => ({ days: window.days, from: window.from, to: window.to })),
    };
    return sendingRulesOf(await this.dispatch.send<SendingRulesView>(Patterns.dispatch.sendingRulesUpdate, command));
  }
}
