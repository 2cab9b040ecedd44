import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  InvalidRequestError,
  MAX_OPT_OUTS_PER_REQUEST,
  MAX_OWN_KEYWORDS,
  Patterns,
  type Ok,
  type OptOutAddCommand,
  type OptOutListQuery,
  type OptOutPage,
  type OptOutRemoveCommand,
  type OptOutSettingsUpdate,
  type OptOutSettingsView,
  type OptOutsAdded,
  type OptOutView,
  withoutSeparators,
} from '@smsq/contracts';
import { jsonObjectOf, ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import { normaliseRecipient } from '@smsq/task-intake';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

function optOutBody(optOut: OptOutView) {
  return { number: optOut.number, opted_out_at: optOut.optedOutAt, source: optOut.source };
}

function settingsBody(settings: OptOutSettingsView) {
  return { opt_out_words: settings.optOutWords, opt_in_words: settings.optInWords, cancel_queued: settings.cancelQueued };
}

/**
 * /smsapi/opt-outs and /smsapi/opt-out-settings: the client's opt-out list, kept by dispatch.
 * Numbers are read exactly as create-task reads a recipient, so a number on the list is the
 * recipient create-task would store.
 */
@Injectable()
export class OptOutsService {
  constructor(
    private readonly config: GatewayConfig,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async list(clientId: number, query: Record<string, unknown>): Promise<{ items: ReturnType<typeof optOutBody>[]; next_cursor: string | null }> {
    const limit = query['limit'] === undefined ? DEFAULT_LIMIT : Number(query['limit']);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new InvalidRequestError(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
    const cursor = singleText(query['cursor'], 'cursor', 200);
    const search = withoutSeparators(singleText(query['search'], 'search', 32) ?? '') || undefined;
    if (search !== undefined && !/^\+?\d{1,15}$/.test(search)) throw new InvalidRequestError('search must be digits of a phone number');
    const request: OptOutListQuery = { clientId, limit, ...(cursor ? { cursor } : {}), ...(search ? { search } : {}) };
    const page = await this.dispatch.send<OptOutPage>(Patterns.dispatch.optOutList, request);
    return { items: page.items.map(optOutBody), next_cursor: page.nextCursor };
  }

  async add(clientId: number, body: unknown, source: OptOutAddCommand['source'] = 'api'): Promise<Ok & OptOutsAdded> {
    const raw = jsonObjectOf(body, 'a JSON object with numbers')['numbers'];
    if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_OPT_OUTS_PER_REQUEST) {
      throw new InvalidRequestError(`numbers is required: a list of 1 to ${MAX_OPT_OUTS_PER_REQUEST} phone numbers`);
    }
    const numbers = raw.map((value, index) => this.numberOf(value, `numbers[${index}]`));
    const command: OptOutAddCommand = { clientId, numbers, source };
    return { ok: true, ...(await this.dispatch.send<OptOutsAdded>(Patterns.dispatch.optOutAdd, command)) };
  }

  async remove(clientId: number, rawNumber: string, source: OptOutRemoveCommand['source'] = 'api'): Promise<Ok> {
    const command: OptOutRemoveCommand = { clientId, number: this.numberOf(rawNumber, 'number'), source };
    return this.dispatch.send<Ok>(Patterns.dispatch.optOutRemove, command);
  }

  async settings(clientId: number) {
    return settingsBody(await this.dispatch.send<OptOutSettingsView>(Patterns.dispatch.optOutSettingsGet, { clientId }));
  }

  async updateSettings(clientId: number, body: unknown) {
    const fields = jsonObjectOf(body, 'a JSON object with opt_out_words, opt_in_words or cancel_queued');
    const known = ['opt_out_words', 'opt_in_words', 'cancel_queued'];
    const unknown = Object.keys(fields).find((field) => !known.includes(field));
    if (unknown !== undefined) throw new InvalidRequestError(`${unknown} is not a setting; use ${known.join(', ')}`);
    if (Object.keys(fields).length === 0) throw new InvalidRequestError(`give at least one of ${known.join(', ')}`);
    const update: OptOutSettingsUpdate = {
      clientId,
      ...(fields['opt_out_words'] !== undefined ? { optOutWords: wordsOf(fields['opt_out_words'], 'opt_out_words') } : {}),
      ...(fields['opt_in_words'] !== undefined ? { optInWords: wordsOf(fields['opt_in_words'], 'opt_in_words') } : {}),
      ...(fields['cancel_queued'] !== undefined ? { cancelQueued: booleanOf(fields['cancel_queued']) } : {}),
    };
    return settingsBody(await this.dispatch.send<OptOutSettingsView>(Patterns.dispatch.optOutSettingsUpdate, update));
  }

  /** As create-task reads a recipient; the error names the field. */
  private numberOf(value: unknown, field: string): string {
    if (typeof value !== 'string') throw new DomainError('invalid_recipient', `${field} must be a phone number`);
    try {
      return normaliseRecipient(value, this.config);
    } catch (error) {
      if (error instanceof DomainError) throw new DomainError(error.code, `${field}: ${error.detail}`);
      throw error;
    }
  }
}

function singleText(value: unknown, name: string, maxLength: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) throw new InvalidRequestError(`${name} must be given once, as text of at most ${maxLength} characters`);
  return value;
}

function wordsOf(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.length > MAX_OWN_KEYWORDS || !value.every((word) => typeof word === 'string' && word.length >= 1 && word.length <= 32)) {
    throw new InvalidRequestError(`${field} must be a list of at most ${MAX_OWN_KEYWORDS} words of 1 to 32 characters`);
  }
  return value as string[];
}

function booleanOf(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new InvalidRequestError('cancel_queued must be true or false');
  return value;
}
