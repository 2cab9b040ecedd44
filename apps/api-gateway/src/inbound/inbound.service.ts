import { Inject, Injectable } from '@nestjs/common';
import {
  Patterns,
  type InboundMessage,
  type MessagesStoreCommand,
  type MessagesStored,
  type OptOutSettingsQuery,
  type OptOutSettingsView,
  type PhoneView,
  type ReplyOwner,
  type ReplyOwnerQuery,
} from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientsRepository } from '../clients/clients.repository.js';
import { GatewayConfig } from '../config/gateway-config.js';
import type { WorkerTokenHolder } from '../identity/worker-tokens.repository.js';
import { parseInboundBody, type InboundItem } from './inbound-request.js';
import { parseInstant } from '@smsq/task-intake';

/**
 * Replies synced by a phone or gateway: each is given to its client (Profile A: the phone's owner;
 * Profile B: whoever last sent from that gateway to that number) and stored once in the inbox.
 */
@Injectable()
export class InboundService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly clients: ClientsRepository,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('inbox')) private readonly inbox: ServiceClient,
  ) {}

  /**
   * The own opt-out and opt-in words of the client whose phone the token is bound to, for a worker
   * that seals replies and so must find their keywords itself; none for a token of no client's phone.
   */
  async replyKeywords(holder: WorkerTokenHolder): Promise<{ opt_out_words: string[]; opt_in_words: string[] }> {
    const phone = holder.phoneId === null ? undefined : await this.dispatch.send<PhoneView>(Patterns.dispatch.phoneGet, { phoneId: holder.phoneId });
    if (!phone?.clientId) return { opt_out_words: [], opt_in_words: [] };
    const query: OptOutSettingsQuery = { clientId: phone.clientId };
    const settings = await this.dispatch.send<OptOutSettingsView>(Patterns.dispatch.optOutSettingsGet, query);
    return { opt_out_words: settings.optOutWords, opt_in_words: settings.optInWords };
  }

  async receive(holder: WorkerTokenHolder, body: unknown): Promise<{ ok: true; stored: number; duplicates: number }> {
    const items = parseInboundBody(body, this.config);
    const owners = await this.ownersBySender(holder, items);
    const zones = new Map<number | null, string>();
    const messages: InboundMessage[] = [];
    for (const item of items) {
      const owner = owners.get(item.from) ?? { clientId: null, phoneId: holder.phoneId };
      const zone = await this.timeZoneOf(owner.clientId, zones);
      messages.push({
        clientId: owner.clientId ?? undefined,
        phoneId: owner.phoneId ?? undefined,
        from: item.from,
        message: item.message,
        ...(item.encrypted ? { encrypted: true, ...(item.keyword ? { keyword: item.keyword } : {}) } : {}),
        receivedAt: (item.receivedAt === undefined ? new Date() : parseInstant(item.receivedAt, zone, 'invalid_request')).toISOString(),
        externalId: item.externalId,
      });
    }
    const command: MessagesStoreCommand = { messages };
    const stored = await this.inbox.send<MessagesStored>(Patterns.inbox.messagesStore, command);
    return { ok: true, stored: stored.stored, duplicates: stored.duplicates };
  }

  private async ownersBySender(holder: WorkerTokenHolder, items: InboundItem[]): Promise<Map<string, ReplyOwner>> {
    const owners = new Map<string, ReplyOwner>();
    if (this.config.profile === 'A') {
      const phone = holder.phoneId === null ? undefined : await this.dispatch.send<PhoneView>(Patterns.dispatch.phoneGet, { phoneId: holder.phoneId });
      for (const item of items) owners.set(item.from, { clientId: phone?.clientId ?? null, phoneId: holder.phoneId });
      return owners;
    }
    for (const from of new Set(items.map((item) => item.from))) {
      if (!from.startsWith('+')) continue;
      const query: ReplyOwnerQuery = { phoneId: holder.phoneId ?? undefined, from };
      owners.set(from, await this.dispatch.send<ReplyOwner>(Patterns.dispatch.replyOwner, query));
    }
    return owners;
  }

  private async timeZoneOf(clientId: number | null, zones: Map<number | null, string>): Promise<string> {
    if (!zones.has(clientId)) {
      const client = clientId === null ? undefined : await this.clients.find(clientId);
      zones.set(clientId, client?.timezone ?? this.config.defaultTimezone);
    }
    return zones.get(clientId)!;
  }
}
