import { domainErrorFrom } from '@smsq/contracts';
import { CommandStatus } from '../protocol/index.js';

/**
 * smsq's own command_status values, in the range SMPP 3.4 leaves to each SMSC (0x400–0x4FF), for
 * refusals the standard list has no word for. Clients treat them as a permanent failure of that
 * submit, which they are: sending the same again changes nothing until the client acts.
 */
export const SMSQ_STATUS = {
  /** insufficient_credits, daily_limit_reached. */
  noCredits: 0x0401,
  /** recipient_opted_out. */
  optedOut: 0x0402,
  /** no_active_phone, phone_disabled, phone_limit_reached. */
  noPhone: 0x0403,
} as const;

/** Each create-task error (DESIGN §3) as the command_status its submit_sm is answered with; docs/guide/smpp.md has the table. */
const STATUS_OF_ERROR: Readonly<Record<string, number>> = {
  invalid_recipient: CommandStatus.ESME_RINVDSTADR,
  invalid_message: CommandStatus.ESME_RINVMSGLEN,
  invalid_scheduled_at: CommandStatus.ESME_RINVSCHED,
  invalid_request: CommandStatus.ESME_RSUBMITFAIL,
  insufficient_credits: SMSQ_STATUS.noCredits,
  daily_limit_reached: SMSQ_STATUS.noCredits,
  recipient_opted_out: SMSQ_STATUS.optedOut,
  no_active_phone: SMSQ_STATUS.noPhone,
  phone_disabled: SMSQ_STATUS.noPhone,
  phone_limit_reached: SMSQ_STATUS.noPhone,
  no_active_gateway: CommandStatus.ESME_RMSGQFUL,
  rate_limited: CommandStatus.ESME_RTHROTTLED,
  unavailable: CommandStatus.ESME_RSYSERR,
  internal_error: CommandStatus.ESME_RSYSERR,
};

/** The status a refused submit is answered with: the error's own, or ESME_RSYSERR for anything unforeseen. */
export function refusalStatusOf(error: unknown): number {
  const known = domainErrorFrom(error);
  return (known && STATUS_OF_ERROR[known.code]) ?? CommandStatus.ESME_RSYSERR;
}
