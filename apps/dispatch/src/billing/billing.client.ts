import { Inject, Injectable } from '@nestjs/common';
import {
  Patterns,
  type BatchAnswer,
  type DebitBatchCommand,
  type DebitCommand,
  type DebitResult,
  type ItemOutcome,
  type RefundCommand,
  type RefundResult,
} from '@smsq/contracts';
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
    return this.billing.send<DebitResult>(Patterns.billing.debit, command, { timeoutMs: this.timeoutUntil([command]) });
  }

  /** Several debits in one message and one billing transaction, answered item by item in order. */
  async debitMany(commands: DebitCommand[]): Promise<ItemOutcome<DebitResult>[]> {
    const batch: DebitBatchCommand = { debits: commands };
    const answer = await this.billing.send<BatchAnswer<DebitResult>>(Patterns.billing.debitBatch, batch, { timeoutMs: this.timeoutUntil(commands) });
    return answer.results;
  }

  refund(command: RefundCommand): Promise<RefundResult> {
    return this.billing.send<RefundResult>(Patterns.billing.refund, command);
  }

  private timeoutUntil(commands: readonly DebitCommand[]): number {
    const untilDeadline = Math.max(...commands.map((command) => Date.parse(command.deadline))) - Date.now();
    return Math.max(1, Math.min(this.config.rpcTimeoutMs, untilDeadline));
  }
}
