import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Chance } from '../chance/chance.js';
import { GatewaySimConfig } from '../config/gateway-sim-config.js';
import { RepliesService } from '../replies/replies.service.js';
import type { SendRequest } from './send-request.js';
import { SentMessages, type SentMessage } from './sent-messages.js';

export type SendResult = { ok: true; message_id: string } | { ok: false; error: string; retry?: true };

/** GATEWAY_SIM_FAILURE_RETRY: the failure the gateway says left nothing sent. */
export const NOTHING_SENT_FAILURE = 'simulated no service: nothing sent';

/** A carrier stand-in: accepts an SMS or fails it at the configured rate, and sometimes "replies". */
@Injectable()
export class SendsService {
  private readonly logger = new Logger(SendsService.name);

  constructor(
    private readonly config: GatewaySimConfig,
    private readonly chance: Chance,
    private readonly sent: SentMessages,
    private readonly replies: RepliesService,
  ) {}

  send(request: SendRequest): SendResult {
    const failed = this.chance.happens(this.config.failureRate);
    const record: SentMessage = {
      message_id: failed ? null : randomUUID(),
      id: request.id ?? null,
      recipient: request.recipient,
      message: request.message,
      status: failed ? 'failed' : 'sent',
      received_at: new Date().toISOString(),
    };
    this.sent.remember(record);
    this.logger.log(`task ${record.id ?? '-'} to ${record.recipient}: ${record.status}`);
    if (record.message_id === null) return this.config.failureRetry ? { ok: false, error: NOTHING_SENT_FAILURE, retry: true } : { ok: false, error: 'simulated carrier failure' };
    if (this.chance.happens(this.config.replyRate)) void this.simulateReply(record);
    return { ok: true, message_id: record.message_id };
  }

  list(): SentMessage[] {
    return this.sent.newestFirst();
  }

  private async simulateReply(record: SentMessage): Promise<void> {
    try {
      await this.replies.forward({ from: record.recipient, message: `Re: ${record.message.slice(0, 100)}` });
    } catch (error) {
      this.logger.warn(`simulated reply to ${record.recipient} not posted: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
