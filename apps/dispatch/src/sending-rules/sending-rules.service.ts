import { Injectable } from '@nestjs/common';
import {
  InvalidRequestError,
  isWindowOpen,
  nextWindowOpening,
  weekMinutesOf,
  type SendingRulesGetQuery,
  type SendingRulesUpdateCommand,
  type SendingRulesView,
} from '@smsq/contracts';
import { isTimeZone } from '@smsq/platform';
import { isStoredId } from '../database/stored-id.js';
import { DEFAULT_RULES, SendingRulesRepository, type StoredRules } from './sending-rules.repository.js';

/**
 * A client's sending rules: its routing mode (`RoutePlanner`) and its send windows (claims hold
 * its normal tasks while they are closed). A client that sets nothing keeps DESIGN §2–§3 exactly.
 */
@Injectable()
export class SendingRulesService {
  constructor(private readonly rules: SendingRulesRepository) {}

  async get(query: SendingRulesGetQuery): Promise<SendingRulesView> {
    const timeZone = zoneOf(query.timeZone);
    const stored = isStoredId(query.clientId) ? await this.rules.find(query.clientId) : null;
    return viewOf(stored ?? DEFAULT_RULES, timeZone);
  }

  async update(command: SendingRulesUpdateCommand): Promise<SendingRulesView> {
    const timeZone = zoneOf(command.timeZone);
    if (!isStoredId(command.clientId)) throw new InvalidRequestError('clientId must be a client id');
    // Under the client's row lock: two changes of different fields at once both stand.
    const saved = await this.rules.change(command.clientId, timeZone, (current) => {
      const sendWindows = (command.sendWindows ?? current.sendWindows).map(({ days, from, to }) => ({ days: [...days], from, to }));
      return {
        routingMode: command.routingMode ?? current.routingMode,
        stickyDays: command.stickyDays ?? current.stickyDays,
        sendWindows,
        windowMinutes: weekMinutesOf(sendWindows),
      };
    });
    return viewOf(saved.rules, saved.timeZone);
  }
}

function zoneOf(timeZone: string): string {
  if (!isTimeZone(timeZone)) throw new InvalidRequestError('timeZone must be an IANA time zone');
  return timeZone;
}

function viewOf(rules: StoredRules, timeZone: string, now = new Date()): SendingRulesView {
  return {
    routingMode: rules.routingMode,
    stickyDays: rules.stickyDays,
    sendWindows: rules.sendWindows,
    timeZone,
    windowOpen: isWindowOpen(rules.windowMinutes, timeZone, now),
    windowOpensAt: nextWindowOpening(rules.windowMinutes, timeZone, now)?.toISOString() ?? null,
  };
}
