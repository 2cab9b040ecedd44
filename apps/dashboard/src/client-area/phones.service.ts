import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError, Patterns, type PhoneDetails, type PhoneLimitsCommand, type PhoneListQuery, type PhoneNumberSetCommand, type PhoneRenameCommand, type PhoneResumeCommand, type PhoneSetActiveCommand } from '@smsq/contracts';
import type { PhoneRow, SilentPhone } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import { SIM_LIMIT_NAMES, setsSimLimits, simLimitsOf } from '../shared/sim-limits.js';
import { phoneRowOf, silentPhonesOf } from '../shared/views.js';
import type { PhoneUpdateBody } from './dto/phone-update.body.js';

/** A client's own phones (Profile A); dispatch checks ownership of every change. */
@Injectable()
export class PhonesService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  async list(clientId: number): Promise<PhoneRow[]> {
    const [phones, timeZone] = await Promise.all([this.ownPhones(clientId), this.directory.timeZoneOf(clientId)]);
    return phones.map((phone) => phoneRowOf(phone, timeZone));
  }

  async update(clientId: number, phoneId: number, change: PhoneUpdateBody): Promise<PhoneRow> {
    if (change.name === undefined && change.active === undefined && change.number === undefined && !setsSimLimits(change)) throw new InvalidRequestError(`give name, active, number or a limit (${SIM_LIMIT_NAMES})`);
    if (change.name !== undefined) {
      const name = change.name.trim();
      if (name === '') throw new InvalidRequestError('name must not be blank');
      const rename: PhoneRenameCommand = { phoneId, clientId, name };
      await this.dispatch.send(Patterns.dispatch.phoneRename, rename);
    }
    if (change.number !== undefined) {
      // The gateway reads it as create-task reads a recipient, so an SMPP source_addr in that form names the phone.
      const setNumber: PhoneNumberSetCommand = { phoneId, clientId, kind: 'own', number: change.number?.trim() || null };
      await this.gateway.send(Patterns.gateway.phoneNumberSet, setNumber);
    }
    if (setsSimLimits(change)) {
      // The daily limit counts the client's days, the recipient cap its calendar months.
      const limits: PhoneLimitsCommand = { phoneId, clientId, kind: 'own', ...simLimitsOf(change), timeZone: await this.directory.timeZoneOf(clientId) };
      await this.dispatch.send(Patterns.dispatch.phoneSetLimits, limits);
    }
    if (change.active !== undefined) {
      const setActive: PhoneSetActiveCommand = { phoneId, clientId, kind: 'own', active: change.active };
      await this.dispatch.send(Patterns.dispatch.phoneSetActive, setActive);
    }
    return this.row(clientId, phoneId);
  }

  /** Lifts a pause (the carrier refused for volume) at once; a phone not paused stays as it is. */
  async resume(clientId: number, phoneId: number): Promise<PhoneRow> {
    const command: PhoneResumeCommand = { phoneId, clientId, kind: 'own' };
    await this.dispatch.send(Patterns.dispatch.phoneResume, command);
    return this.row(clientId, phoneId);
  }

  /** The client's enabled phones that went silent, for the Overview's banner. */
  async silent(clientId: number): Promise<SilentPhone[]> {
    return silentPhonesOf(await this.ownPhones(clientId));
  }

  /** The phone as the list shows it, with what it counts today. */
  private async row(clientId: number, phoneId: number): Promise<PhoneRow> {
    const phone = (await this.list(clientId)).find((candidate) => candidate.id === phoneId);
    if (!phone) throw new NotFoundError('phone');
    return phone;
  }

  private ownPhones(clientId: number): Promise<PhoneDetails[]> {
    const query: PhoneListQuery = { clientId, kind: 'own' };
    return this.dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, query);
  }
}
