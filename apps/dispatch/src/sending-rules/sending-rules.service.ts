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
    const current = (await this.rules.find(command.clientId)) ?? DEFAULT_RULES;
    const sendWindows = command.sendWindows ?? current.sendWindows;
    for (const window of sendWindows) if (window.days.length === 0) throw new InvalidRequestError('each send window names at least one day');
    const rules: StoredRules = {
      routingMode: command.routingMode ?? current.routingMode,
      stickyDays: command.stickyDays ?? current.stickyDays,
      sendWindows: sendWindows.map(({ days, from, to }) => ({ days: [...new Set(days)], from, to })),
      windowMinutes: weekMinutesOf(sendWindows),
    };
    await this.rules.save(command.clientId, rules, timeZone);
    return viewOf(rules, timeZone);
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
