import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type PhoneDetails, type PhoneListQuery } from '@smsq/contracts';
import { serviceClientToken, type ServiceClient } from '@smsq/platform';
import { SmppConfig } from '../config/smpp-config.js';

/** A client's phones are read again after this long, so a number recorded a moment ago soon counts. */
const FRESH_MS = 30_000;

/** Which of a client's phones (own phones, or VIP gateways in Profile B) has which number. */
@Injectable()
export class PhoneNumbers {
  private readonly byClient = new Map<number, { at: number; numbers: Promise<Map<string, number>> }>();

  constructor(
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    private readonly config: SmppConfig,
  ) {}

  /** The id of the client's phone whose number `sourceAddr` is (digits compared, `+` or not); undefined for any other sender. */
  async phoneOf(clientId: number, sourceAddr: string): Promise<number | undefined> {
    const digits = digitsOf(sourceAddr);
    if (digits === undefined) return undefined;
    return (await this.numbersOf(clientId)).get(digits);
  }

  /** The number recorded on the client's phone, `+` and digits; undefined when none is. */
  async numberOf(clientId: number, phoneId: number): Promise<string | undefined> {
    for (const [digits, id] of await this.numbersOf(clientId)) if (id === phoneId) return `+${digits}`;
    return undefined;
  }

  /** One read at a time per client: the submits of a window that find the numbers stale share it. */
  private numbersOf(clientId: number): Promise<Map<string, number>> {
    const cached = this.byClient.get(clientId);
    if (cached && Date.now() - cached.at < FRESH_MS) return cached.numbers;
    const numbers = this.readNumbers(clientId);
    this.byClient.set(clientId, { at: Date.now(), numbers });
    // A failed read is not kept: the next submit asks again.
    numbers.catch(() => this.byClient.get(clientId)?.numbers === numbers && this.byClient.delete(clientId));
    return numbers;
  }

  private async readNumbers(clientId: number): Promise<Map<string, number>> {
    const query: PhoneListQuery = { clientId, kind: this.config.profile === 'A' ? 'own' : 'gateway' };
    const phones = await this.dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, query);
    const numbers = new Map<string, number>();
    for (const phone of phones) {
      const digits = phone.number === null ? undefined : digitsOf(phone.number);
      if (digits !== undefined && phone.active) numbers.set(digits, phone.id);
    }
    return numbers;
  }
}

function digitsOf(address: string): string | undefined {
  const match = /^\+?(\d{6,16})$/.exec(address.trim());
  return match?.[1];
}
