import type { SmppBindIdentity } from '@smsq/contracts';
import type { QueryOutcome } from '../queries/task-queries.service.js';
import type { SubmitOutcome, SubmitRequest } from '../submits/submit.service.js';
import type { BindRegistry } from '../binds/bind-registry.js';
import type { LongSubmits } from './long-submits.js';

export type BindOutcome = { ok: true; identity: SmppBindIdentity } | { ok: false; status: number };

/** What a connection asks of the rest of the service: one object, so a session is tested with stand-ins. */
export interface SessionServices {
  authenticate(systemId: string, password: string): Promise<BindOutcome>;
  submit(request: SubmitRequest): Promise<SubmitOutcome>;
  query(clientId: number, messageId: string): Promise<QueryOutcome>;
  cancel(clientId: number, messageId: string): Promise<number>;
  readonly parts: LongSubmits;
  readonly registry: BindRegistry;
  /** A receiver bound: what is owed to its client goes out now rather than at the next round. */
  receiverBound(): void;
}

export interface SessionTimings {
  /** Quiet for this long, the peer is sent enquire_link; quiet as long again, it is closed. */
  enquireMs: number;
  /** How long a deliver_sm waits for its response. */
  responseTimeoutMs: number;
}
