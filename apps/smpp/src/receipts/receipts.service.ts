import { Injectable } from '@nestjs/common';
import type { Ok, SmppTaskEndedCommand } from '@smsq/contracts';
import { SubmissionsRepository } from '../submits/submissions.repository.js';
import { ReceiptsRepository } from './receipts.repository.js';
import { wantsReceiptFor } from './receipt-wishes.js';

/** Keeps the receipts a task's end owes its client, until a receiver bind takes them. */
@Injectable()
export class ReceiptsService {
  constructor(
    private readonly receipts: ReceiptsRepository,
    private readonly submissions: SubmissionsRepository,
  ) {}

  /** At least once from dispatch's outbox: a repeat finds the receipt kept (or delivered) already and adds nothing. */
  async taskEnded(command: SmppTaskEndedCommand): Promise<Ok> {
    const submission = await this.submissions.find(command.taskId);
    // Without its submission (its row not written yet) the receipt is kept: a receipt too many beats one lost.
    if (submission && !wantsReceiptFor(submission.registeredDelivery, command.event)) return { ok: true };
    await this.receipts.keep({ taskId: command.taskId, event: command.event, clientId: command.clientId, at: new Date(command.at) });
    return { ok: true };
  }
}
