import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { CommandStatus } from '../protocol/index.js';
import { refusalStatusOf, SMSQ_STATUS } from './refusal-status.js';

describe('refusalStatusOf', () => {
  it("answers each create-task error with the table's status", () => {
    const statusOf = (code: ConstructorParameters<typeof DomainError>[0]) => refusalStatusOf(new DomainError(code, 'detail'));
    expect(statusOf('invalid_recipient')).toBe(CommandStatus.ESME_RINVDSTADR);
    expect(statusOf('insufficient_credits')).toBe(SMSQ_STATUS.noCredits);
    expect(statusOf('daily_limit_reached')).toBe(SMSQ_STATUS.noCredits);
    expect(statusOf('recipient_opted_out')).toBe(SMSQ_STATUS.optedOut);
    expect(statusOf('no_active_phone')).toBe(SMSQ_STATUS.noPhone);
    expect(statusOf('rate_limited')).toBe(CommandStatus.ESME_RTHROTTLED);
    expect(statusOf('unavailable')).toBe(CommandStatus.ESME_RSYSERR);
  });

  it('reads a refused item of create-tasks as well as an error, and answers ESME_RSYSERR for anything unforeseen', () => {
    expect(refusalStatusOf({ ok: false, error: 'recipient_opted_out', detail: 'said STOP' })).toBe(SMSQ_STATUS.optedOut);
    expect(refusalStatusOf(new Error('boom'))).toBe(CommandStatus.ESME_RSYSERR);
  });
});
