import { Injectable, Logger } from '@nestjs/common';
import { isTimeZone } from '@smsq/platform';
import {
  DomainError,
  InvalidRequestError,
  NotFoundError,
  type GatewayCreateCommand,
  type Ok,
  type PhoneDetails,
  type PhoneGetQuery,
  type PhoneLimitsCommand,
  type PhoneListQuery,
  type PhoneRegisterCommand,
  type PhoneRegistered,
  type PhoneRenameCommand,
  type PhoneSetNumberCommand,
  type PhoneSetActiveCommand,
  type PhoneView,
} from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { isStoredId } from '../database/stored-id.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { PhoneFailover } from '../failover/phone-failover.js';
import { PhoneConditions } from './phone-conditions.js';
import type { Phone } from '../generated/prisma/client.js';
import { PhonesRepository } from './phones.repository.js';
import { toPhoneDetails, toPhoneView } from './phone-view.js';

/** The phones tasks are routed to: clients' own phones (Profile A) and pooled gateways (Profile B). */
@Injectable()
export class PhonesService {
  private readonly logger = new Logger(PhonesService.name);

  constructor(
    private readonly config: DispatchConfig,
    private readonly phones: PhonesRepository,
    private readonly signals: DueSignals,
    private readonly conditions: PhoneConditions,
    private readonly failover: PhoneFailover,
  ) {}

  /**
   * Pairs an own phone within the plan's limit. A known device gets its phone back as it is (a
   * disabled phone stays disabled, a name given in the dashboard stays), except for a new address
   * it gives: a phone paired again after its network address changed is reached at the new one.
   * Pairing again is contact. Every phone the client has, active or not, counts.
   */
  async register(command: PhoneRegisterCommand): Promise<PhoneRegistered> {
    if (this.config.profile !== 'A') throw new DomainError('not_found', 'phones are registered only in Profile A');
    return this.phones.underClientLock(command.clientId, async (tx): Promise<PhoneRegistered> => {
      const known = command.deviceId ? await this.phones.findOwnByDevice(command.clientId, command.deviceId, tx) : null;
      if (known) {
        const paired = await this.phones.paired(known.id, command.url !== known.url ? command.url : undefined, tx);
        return { phone: toPhoneView(paired, this.conditions), created: false };
      }
      if ((await this.phones.countOwn(command.clientId, tx)) >= command.phoneLimit) {
        throw new DomainError('phone_limit_reached', `the plan allows ${command.phoneLimit} phones`);
      }
      const phone = await this.phones.insert(
        { kind: 'own', clientId: command.clientId, name: command.name, url: command.url ?? null, deviceId: command.deviceId ?? null },
        tx,
      );
      return { phone: toPhoneView(phone, this.conditions), created: true };
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
    return toPhoneView(gateway, this.conditions);
  }

  async get(query: PhoneGetQuery): Promise<PhoneView> {
    const phone = isStoredId(query.phoneId) ? await this.phones.findById(query.phoneId) : null;
    if (!phone) throw new NotFoundError('phone');
    return toPhoneView(phone, this.conditions);
  }

  /**
   * The kind must match: a phone command never touches a gateway, nor a gateway command a phone.
   * Enabling one makes its due tasks claimable again, so waiting polls are told; disabling one
   * moves its waiting tasks to another phone at once (the failover sweep takes what is left).
   */
  async setActive(command: PhoneSetActiveCommand): Promise<Ok> {
    const updated =
      isStoredId(command.phoneId) &&
      isOptionalStoredId(command.clientId) &&
      (await this.phones.setActive(command.phoneId, command.kind, command.active, command.clientId));
    if (!updated) throw new NotFoundError(command.kind === 'own' ? 'phone' : 'gateway');
    if (command.active && (await this.phones.hasDueTasks(command.phoneId))) await this.signals.announce([command.phoneId]);
    if (!command.active) await this.moveWaitingTasks(command.phoneId);
    return { ok: true };
  }

  /**
   * Sets a phone's SIM limits (DESIGN §3 additions). With clientId only that client's phones; the
   * kind must match. A limit raised or removed may make waiting tasks claimable: polls are told.
   */
  async setLimits(command: PhoneLimitsCommand): Promise<PhoneView> {
    if (command.timeZone !== undefined && !isTimeZone(command.timeZone)) throw new InvalidRequestError('timeZone must be an IANA time zone');
    const phone =
      isStoredId(command.phoneId) && isOptionalStoredId(command.clientId)
        ? await this.phones.setLimits(
            command.phoneId,
            command.kind,
            {
              dailyLimit: command.dailyLimit,
              perMinute: command.perMinute,
              monthlyRecipients: command.monthlyRecipients,
              jitter: command.jitter,
              sims: command.sims,
              timeZone: command.timeZone,
            },
            command.clientId,
          )
        : null;
    if (!phone) throw new NotFoundError(command.kind === 'own' ? 'phone' : 'gateway');
    if (await this.phones.hasDueTasks(phone.id)) await this.signals.announce([phone.id]);
    return toPhoneView(phone, this.conditions);
  }

  /** Disabling stands whatever happens to the move: the sweep moves what this did not. */
  private async moveWaitingTasks(phoneId: number): Promise<void> {
    try {
      await this.failover.moveFrom(phoneId);
    } catch (error) {
      this.logger.warn(`waiting tasks of disabled phone ${phoneId} left to the failover sweep: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** With clientId, only that client's phones (own phones, or its VIP gateways); another's is not found. */
  async rename(command: PhoneRenameCommand): Promise<PhoneView> {
    const name = command.name.trim();
    if (name === '') throw new InvalidRequestError('name must not be blank');
    const phone =
      isStoredId(command.phoneId) && isOptionalStoredId(command.clientId) ? await this.phones.rename(command.phoneId, name, command.clientId) : null;
    if (!phone) throw new NotFoundError('phone');
    return toPhoneView(phone, this.conditions);
  }

  /** Records the number of the client's phone (or gateway of the kind asked), or forgets it with null. */
  async setNumber(command: PhoneSetNumberCommand): Promise<PhoneView> {
    const phone =
      isStoredId(command.phoneId) && isOptionalStoredId(command.clientId) ? await this.phones.setNumber(command.phoneId, command.kind, command.number, command.clientId) : null;
    if (!phone) throw new NotFoundError('phone');
    return toPhoneView(phone, this.conditions);
  }

  /** Lowest id first; sentToday counts from the start of today in UTC; waitingTasks the due tasks waiting for each. */
  async list(query: PhoneListQuery): Promise<PhoneDetails[]> {
    if (!isOptionalStoredId(query.clientId)) return [];
    const phones = await this.phones.list({ clientId: query.clientId, kind: query.kind });
    return this.detailsOf(phones);
  }

  private async detailsOf(phones: Phone[]): Promise<PhoneDetails[]> {
    const counts = await this.phones.countsOf(phones.map((phone) => phone.id));
    return phones.map((phone) => toPhoneDetails(phone, this.conditions, counts.get(phone.id)!));
  }
}

/** Absent, or an id a row can have: a client id beyond that owns nothing. */
function isOptionalStoredId(id: number | undefined): boolean {
  return id === undefined || isStoredId(id);
}
