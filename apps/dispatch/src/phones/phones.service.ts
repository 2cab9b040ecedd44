import { Injectable } from '@nestjs/common';
import {
  DomainError,
  InvalidRequestError,
  NotFoundError,
  type GatewayCreateCommand,
  type Ok,
  type PhoneDetails,
  type PhoneGetQuery,
  type PhoneListQuery,
  type PhoneRegisterCommand,
  type PhoneRegistered,
  type PhoneRenameCommand,
  type PhoneSetActiveCommand,
  type PhoneView,
} from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { isStoredId } from '../database/stored-id.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { PhonesRepository } from './phones.repository.js';
import { toPhoneDetails, toPhoneView } from './phone-view.js';

/** The phones tasks are routed to: clients' own phones (Profile A) and pooled gateways (Profile B). */
@Injectable()
export class PhonesService {
  constructor(
    private readonly config: DispatchConfig,
    private readonly phones: PhonesRepository,
    private readonly signals: DueSignals,
  ) {}

  /**
   * Pairs an own phone within the plan's limit. A known device gets its phone back as it is (a
   * disabled phone stays disabled, a name given in the dashboard stays), except for a new address
   * it gives: a phone paired again after its network address changed is reached at the new one.
   * Every phone the client has, active or not, counts.
   */
  async register(command: PhoneRegisterCommand): Promise<PhoneRegistered> {
    if (this.config.profile !== 'A') throw new DomainError('not_found', 'phones are registered only in Profile A');
    return this.phones.underClientLock(command.clientId, async (tx): Promise<PhoneRegistered> => {
      const known = command.deviceId ? await this.phones.findOwnByDevice(command.clientId, command.deviceId, tx) : null;
      if (known) {
        const moved = command.url !== undefined && command.url !== known.url ? await this.phones.moveTo(known.id, command.url, tx) : known;
        return { phone: toPhoneView(moved), created: false };
      }
      if ((await this.phones.countOwn(command.clientId, tx)) >= command.phoneLimit) {
        throw new DomainError('phone_limit_reached', `the plan allows ${command.phoneLimit} phones`);
      }
      const phone = await this.phones.insert(
        { kind: 'own', clientId: command.clientId, name: command.name, url: command.url ?? null, deviceId: command.deviceId ?? null },
        tx,
      );
      return { phone: toPhoneView(phone), created: true };
    });
  }

  async createGateway(command: GatewayCreateCommand): Promise<PhoneView> {
    if (this.config.profile !== 'B') throw new DomainError('not_found', 'gateways exist only in Profile B');
    const gateway = await this.phones.insert({
      kind: 'gateway',
      clientId: command.clientId ?? null,
      name: command.name,
      url: command.url,
      deviceId: null,
    });
    return toPhoneView(gateway);
  }

  async get(query: PhoneGetQuery): Promise<PhoneView> {
    const phone = isStoredId(query.phoneId) ? await this.phones.findById(query.phoneId) : null;
    if (!phone) throw new NotFoundError('phone');
    return toPhoneView(phone);
  }

  /**
   * The kind must match: a phone command never touches a gateway, nor a gateway command a phone.
   * Enabling one makes its due tasks claimable again, so waiting polls are told.
   */
  async setActive(command: PhoneSetActiveCommand): Promise<Ok> {
    const updated =
      isStoredId(command.phoneId) &&
      isOptionalStoredId(command.clientId) &&
      (await this.phones.setActive(command.phoneId, command.kind, command.active, command.clientId));
    if (!updated) throw new NotFoundError(command.kind === 'own' ? 'phone' : 'gateway');
    if (command.active && (await this.phones.hasDueTasks(command.phoneId))) await this.signals.announce([command.phoneId]);
    return { ok: true };
  }

  /** With clientId, only that client's phones (own phones, or its VIP gateways); another's is not found. */
  async rename(command: PhoneRenameCommand): Promise<PhoneView> {
    const name = command.name.trim();
    if (name === '') throw new InvalidRequestError('name must not be blank');
    const phone =
      isStoredId(command.phoneId) && isOptionalStoredId(command.clientId) ? await this.phones.rename(command.phoneId, name, command.clientId) : null;
    if (!phone) throw new NotFoundError('phone');
    return toPhoneView(phone);
  }

  /** Lowest id first; sentToday counts from the start of today in UTC. */
  async list(query: PhoneListQuery): Promise<PhoneDetails[]> {
    if (!isOptionalStoredId(query.clientId)) return [];
    const phones = await this.phones.list({ clientId: query.clientId, kind: query.kind });
    const sent = await this.phones.sentSince(
      phones.map((phone) => phone.id),
      startOfUtcDay(new Date()),
    );
    return phones.map((phone) => toPhoneDetails(phone, sent.get(phone.id) ?? 0));
  }
}

/** Absent, or an id a row can have: a client id beyond that owns nothing. */
function isOptionalStoredId(id: number | undefined): boolean {
  return id === undefined || isStoredId(id);
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
