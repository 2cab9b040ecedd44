import type { SmppBindIdentity } from '@smsq/contracts';
import { bindsOpen } from '../metrics/smpp-metrics.js';

export type BindType = 'transmitter' | 'receiver' | 'transceiver';

/** A deliver_sm as smsq sends it: a receipt (esm_class 0x04) or a reply. */
export interface OutgoingDelivery {
  sourceAddr: string;
  destinationAddr: string;
  /** 0x04 for a delivery receipt, 0 for a reply. */
  esmClass: number;
  text: string;
  /** For a receipt: the task id and its SMPP message_state. */
  receipt?: { messageId: string; messageState: number };
}

/** A bound connection, as the rest of the service sees it. */
export interface BoundSession {
  readonly identity: SmppBindIdentity;
  readonly type: BindType;
  /** Sends a deliver_sm and answers the command_status of its deliver_sm_resp; rejects when none comes in time or the bind closes. */
  deliver(delivery: OutgoingDelivery): Promise<number>;
  /** Unbinds and closes (a revoked credential, shutdown). */
  close(reason: string): void;
}

/** The binds open on this replica: who may receive, whose credentials to watch. */
export class BindRegistry {
  private readonly sessions = new Set<BoundSession>();
  private readonly turn = new Map<number, number>();

  add(session: BoundSession): void {
    this.sessions.add(session);
    bindsOpen.inc({ type: session.type });
  }

  remove(session: BoundSession): void {
    if (this.sessions.delete(session)) bindsOpen.dec({ type: session.type });
  }

  /** Clients with a receiver or transceiver bind here: what this replica delivers receipts and replies for. */
  receivingClients(): number[] {
    return [...new Set([...this.sessions].filter(receives).map((session) => session.identity.clientId))];
  }

  /** One of the client's receiving binds here, taking turns; undefined when it has none. */
  receiverOf(clientId: number): BoundSession | undefined {
    const receivers = [...this.sessions].filter((session) => receives(session) && session.identity.clientId === clientId);
    if (receivers.length === 0) return undefined;
    const next = (this.turn.get(clientId) ?? 0) % receivers.length;
    this.turn.set(clientId, next + 1);
    return receivers[next];
  }

  /** The earliest credential creation among the client's receiving binds: replies since then are owed. */
  credentialSince(clientId: number): Date | undefined {
    const times = [...this.sessions].filter((session) => receives(session) && session.identity.clientId === clientId).map((session) => Date.parse(session.identity.createdAt));
    return times.length === 0 ? undefined : new Date(Math.min(...times));
  }

  credentialIds(): number[] {
    return [...new Set([...this.sessions].map((session) => session.identity.credentialId))];
  }

  /** Closes every bind of a credential no longer active. */
  closeAllBut(activeIds: ReadonlySet<number>, reason: string): void {
    for (const session of [...this.sessions]) if (!activeIds.has(session.identity.credentialId)) session.close(reason);
  }

  all(): BoundSession[] {
    return [...this.sessions];
  }
}

function receives(session: BoundSession): boolean {
  return session.type !== 'transmitter';
}
