import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError, Patterns, type PhoneDetails, type PhoneListQuery, type PhoneRenameCommand, type PhoneSetActiveCommand } from '@smsq/contracts';
import type { PhoneRow } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import { phoneRowOf } from '../shared/views.js';
import type { PhoneUpdateBody } from './dto/phone-update.body.js';

/** A client's own phones (Profile A); dispatch checks ownership of every change. */
@Injectable()
export class PhonesService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async list(clientId: number): Promise<PhoneRow[]> {
    const [phones, timeZone] = await Promise.all([this.ownPhones(clientId), this.directory.timeZoneOf(clientId)]);
    return phones.map((phone) => phoneRowOf(phone, timeZone));
  }

  async update(clientId: number, phoneId: number, change: PhoneUpdateBody): Promise<PhoneRow> {
    if (change.name === undefined && change.active === undefined) throw new InvalidRequestError('give name, active or both');
    if (change.name !== undefined) {
      const name = change.name.trim();
      if (name === '') throw new InvalidRequestError('name must not be blank');
      const rename: PhoneRenameCommand = { phoneId, clientId, name };
      await this.dispatch.send(Patterns.dispatch.phoneRename, rename);
    }
    if (change.active !== undefined) {
      const setActive: PhoneSetActiveCommand = { phoneId, clientId, kind: 'own', active: change.active };
      await this.dispatch.send(Patterns.dispatch.phoneSetActive, setActive);
    }
    const phone = (await this.list(clientId)).find((candidate) => candidate.id === phoneId);
    if (!phone) throw new NotFoundError('phone');
    return phone;
  }

  private ownPhones(clientId: number): Promise<PhoneDetails[]> {
    const query: PhoneListQuery = { clientId, kind: 'own' };
    return this.dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, query);
  }
}
