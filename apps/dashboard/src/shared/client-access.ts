import { Injectable } from '@nestjs/common';
import { ClientDirectory } from './client-directory.js';

/**
 * How long this dashboard instance uses the gateway's answer to "is this client disabled?" before
 * asking again: the longest a disable waits to end its users' sessions here.
 */
export const CLIENT_ACCESS_TTL_MS = 5_000;
/** Clients remembered at most; past it the least recently asked about is dropped. */
export const CLIENT_ACCESS_MAX_CLIENTS = 10_000;

interface Answer {
  disabled: boolean;
  /** When the gateway was asked (epoch ms): the answer is at least this fresh. */
  askedAt: number;
}

/**
 * Whether a client's users may use the dashboard. Every request of a client user needs this, so
 * the gateway is asked at most once per client per CLIENT_ACCESS_TTL_MS: a slow gateway slows one
 * request in that time, not every page. With no answer to use and no gateway, the request fails
 * as the gateway's call does.
 */
@Injectable()
export class ClientAccess {
  private readonly answers = new Map<number, Answer>();
  private readonly asking = new Map<number, Promise<boolean>>();

  constructor(private readonly directory: ClientDirectory) {}

  /** For a signed-in user's request: the answer of the last CLIENT_ACCESS_TTL_MS, else the gateway's. */
  async isDisabled(clientId: number): Promise<boolean> {
    const known = this.answers.get(clientId);
    if (known && Date.now() - known.askedAt < CLIENT_ACCESS_TTL_MS) return known.disabled;
    return this.isDisabledNow(clientId);
  }

  /** Asks the gateway (requests arriving meanwhile share the answer), and remembers what it says. Sign-in asks this way, so it sees a disable at once. */
  isDisabledNow(clientId: number): Promise<boolean> {
    const asking = this.asking.get(clientId);
    if (asking) return asking;
    const askedAt = Date.now();
    const asked = this.directory
      .client(clientId)
      .then((client) => {
        const disabled = client.disabledAt !== null;
        this.remember(clientId, { disabled, askedAt });
        return disabled;
      })
      .finally(() => this.asking.delete(clientId));
    this.asking.set(clientId, asked);
    return asked;
  }

  /** This instance changed the client's state: the next request asks the gateway. */
  forget(clientId: number): void {
    this.answers.delete(clientId);
  }

  private remember(clientId: number, answer: Answer): void {
    // Deleted first so the Map's order stays the order of asking, oldest first.
    this.answers.delete(clientId);
    this.answers.set(clientId, answer);
    if (this.answers.size > CLIENT_ACCESS_MAX_CLIENTS) this.answers.delete(this.answers.keys().next().value!);
  }
}
