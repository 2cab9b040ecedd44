import { CommandStatus } from './command-status.js';
import { SmppRefusal } from './smpp-refusal.js';

export type PartRefusalReason = 'invalid-numbering' | 'total-mismatch' | 'conflicting-duplicate' | 'too-many-open' | 'incomplete' | 'closed';

const STATUS_BY_REASON: Record<PartRefusalReason, number> = {
  'invalid-numbering': CommandStatus.ESME_RINVOPTPARAMVAL,
  'total-mismatch': CommandStatus.ESME_RINVOPTPARAMVAL,
  'conflicting-duplicate': CommandStatus.ESME_RSUBMITFAIL,
  'too-many-open': CommandStatus.ESME_RMSGQFUL,
  incomplete: CommandStatus.ESME_RSUBMITFAIL,
  closed: CommandStatus.ESME_RSYSERR,
};

/** A part that cannot join its message: `reason` for logs and metrics, `status` for its submit_sm_resp. */
export class PartRefused extends SmppRefusal {
  readonly status: number;

  constructor(
    readonly reason: PartRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = PartRefused.name;
    this.status = STATUS_BY_REASON[reason];
  }
}
