import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, Patterns, phoneBody, type PhoneBody, type PhoneDetails, type PhoneLimitsCommand, type PhoneListQuery, type PhoneResumeCommand, type PhoneSetNumberCommand, type PhoneView } from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { storedIdFromPath } from '../identity/stored-id.js';
import { parsePhoneLimits } from './phone-limits-request.js';
import { phoneNumberOf } from './phone-number.js';

/** Whose phones these are: an API key's client, whose time zone its daily limits count days in. */
export type PhoneOwner = Pick<ApiKeyOwner, 'clientId' | 'timezone'>;

/**
 * A client's phones as the public API shows them: in Profile A its own phones, whose number and
 * SIM limits it may set and which it may resume; in Profile B the gateways of its VIP pool, which only an admin sets.
 */
@Injectable()
export class ClientPhonesService {
  constructor(
    private readonly config: GatewayConfig,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async list(owner: PhoneOwner): Promise<{ phones: PhoneBody[] }> {
    return { phones: (await this.phonesOf(owner)).map(phoneBody) };
  }

  /**
   * Records its number (read as a recipient is) and sets its SIM limits, whichever the body gives;
   * everything is checked before anything is sent. Another client's phone, an unknown one, or any
   * in Profile B (gateways are the admin's) is 404, as if it did not exist.
   */
  async update(owner: PhoneOwner, rawId: string, body: unknown): Promise<PhoneBody> {
    if (this.config.profile !== 'A') throw new NotFoundError('phone');
    const phoneId = storedIdFromPath(rawId, 'phone');
    const { number, ...limits } = parsePhoneLimits(body);
    const normalised = number === undefined ? undefined : phoneNumberOf(number, this.config);
    if (normalised !== undefined) {
      const command: PhoneSetNumberCommand = { phoneId, kind: 'own', clientId: owner.clientId, number: normalised };
      await this.dispatch.send<PhoneView>(Patterns.dispatch.phoneSetNumber, command);
    }
    if (Object.keys(limits).length > 0) {
      const command: PhoneLimitsCommand = { phoneId, kind: 'own', clientId: owner.clientId, ...limits, timeZone: owner.timezone };
      await this.dispatch.send<PhoneView>(Patterns.dispatch.phoneSetLimits, command);
    }
    return this.phoneOf(owner, phoneId);
  }

  /**
   * Lifts a pause (the carrier refused the phone's sends for volume) at once, rather than when it
   * ends by itself; a phone not paused is answered as it is. 404 as for `setLimits`.
   */
  async resume(owner: PhoneOwner, rawId: string): Promise<PhoneBody> {
    if (this.config.profile !== 'A') throw new NotFoundError('phone');
    const phoneId = storedIdFromPath(rawId, 'phone');
    const command: PhoneResumeCommand = { phoneId, kind: 'own', clientId: owner.clientId };
    await this.dispatch.send<PhoneView>(Patterns.dispatch.phoneResume, command);
    return this.phoneOf(owner, phoneId);
  }

  /** The phone as the list shows it (with its counts), after a change. */
  private async phoneOf(owner: PhoneOwner, phoneId: number): Promise<PhoneBody> {
    const phone = (await this.phonesOf(owner)).find((candidate) => candidate.id === phoneId);
    if (!phone) throw new NotFoundError('phone');
    return phoneBody(phone);
  }

  private async phonesOf(owner: PhoneOwner): Promise<PhoneDetails[]> {
    const query: PhoneListQuery = { clientId: owner.clientId, kind: this.config.profile === 'A' ? 'own' : 'gateway' };
    const phones = await this.dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, query);
    return [...phones].sort((a, b) => a.id - b.id);
  }
}
