import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type DebitCommand, type DebitResult, type RefundCommand, type RefundResult } from '@smsq/contracts';
import { serviceClientToken, type ServiceClient } from '@smsq/platform';
import { DispatchConfig } from '../config/dispatch-config.js';

/** The billing service as dispatch uses it: one debit per task key, and a refund of one that was never created. */
@Injectable()
export class BillingClient {
  constructor(
    @Inject(serviceClientToken('billing')) private readonly billing: ServiceClient,
    private readonly config: DispatchConfig,
  ) {}

  /** Never waits past the command's deadline: by then the caller has stopped listening. */
  debit(command: DebitCommand): Promise<DebitResult> {
    const untilDeadline = Date.parse(command.deadline) - Date.now();
    const timeoutMs = Math.max(1, Math.min(this.config.rpcTimeoutMs, untilDeadline));
    return this.billing.send<DebitResult>(Patterns.billing.debit, command, { timeoutMs });
  }

  refund(command: RefundCommand): Promise<RefundResult> {
    return this.billing.send<RefundResult>(Patterns.billing.refund, command);
  }
}
