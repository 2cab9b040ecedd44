import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Patterns, type InboxMessageView, type MessagesAfterQuery } from '@smsq/contracts';
import { RepeatingJob, serviceClientToken, type ServiceClient } from '@smsq/platform';
import { BindRegistry, type OutgoingDelivery } from '../binds/bind-registry.js';
import { SmppConfig } from '../config/smpp-config.js';
import { deliveriesSent, receiptsWaiting } from '../metrics/smpp-metrics.js';
import { CommandStatus } from '../protocol/index.js';
import { receiptDelivery } from '../receipts/receipt-delivery.js';
import { ReceiptsRepository, type DueReceipt } from '../receipts/receipts.repository.js';
import { PhoneNumbers } from '../submits/phone-numbers.js';
import { ReplyCursorsRepository } from '../replies/reply-cursors.repository.js';

const ROUND_MS = 250;
/** A receipt taken is another replica's to retry only after this long: longer than a deliver_sm may wait for its answer. */
const LEASE_S = 30;
const RECEIPTS_PER_ROUND = 200;
const REPLIES_PER_ROUND = 20;
/** How soon a client whose replies were all relayed is asked about again. */
const QUIET_REPLY_CHECK_MS = 1_000;
/** A receiver that refused or did not answer is tried again after 2, 4, 8… s, at most this. */
const MAX_RETRY_S = 300;

/**
 * Hands what is owed to the clients bound here (receipts, then replies) to their receiver binds,
 * each taken away only once the receiver answered ESME_ROK: at least once, across restarts and
 * replicas, since what is owed is in the database and whichever replica holds a receiver takes it.
 */
@Injectable()
export class ReceiverDelivery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ReceiverDelivery.name);
  private readonly job = new RepeatingJob('receiver delivery', ROUND_MS, () => this.deliverOnce(), this.logger);
  /** A client's replies are asked about again only from then on: its receiver refused or missed one (`attempts` in a row), or none were waiting. */
  private readonly replyChecksAfter = new Map<number, { at: number; attempts: number }>();
  /** Clients whose reply cursor exists already (made once, at the first receiver bind). */
  private readonly cursorsStarted = new Set<number>();
  private readonly gauge = new RepeatingJob('receipts gauge', 10_000, async () => receiptsWaiting.set(await this.receipts.waiting()), this.logger);

  constructor(
    private readonly registry: BindRegistry,
    private readonly receipts: ReceiptsRepository,
    private readonly cursors: ReplyCursorsRepository,
    private readonly phones: PhoneNumbers,
    private readonly config: SmppConfig,
    @Inject(serviceClientToken('inbox')) private readonly inbox: ServiceClient,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
    this.gauge.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.job.stop(), this.gauge.stop()]);
  }

  /** A receiver bound, or a receipt arrived: no need to wait for the next round. */
  soon(): void {
    this.job.runSoon();
  }

  async deliverOnce(): Promise<void> {
    const clients = this.registry.receivingClients();
    if (clients.length === 0) return;
    const due = await this.receipts.takeDue(clients, RECEIPTS_PER_ROUND, LEASE_S);
    await Promise.all([Promise.all(due.map((receipt) => this.deliverReceipt(receipt))), Promise.all(clients.map((clientId) => this.relayReplies(clientId)))]);
  }

  private async deliverReceipt(receipt: DueReceipt): Promise<void> {
    const session = this.registry.receiverOf(receipt.clientId);
    if (!session) {
      await this.receipts.release(receipt.taskId, receipt.event);
      return;
    }
    const outcome = await this.attempt('receipt', () => session.deliver(receiptDelivery(receipt)));
    if (outcome === 'ok') await this.receipts.delivered(receipt.taskId, receipt.event);
    else await this.receipts.retryLater(receipt.taskId, receipt.event, retryDelayS(receipt.attempts));
  }

  /** The client's replies after its cursor, in order, one at a time: the cursor moves past each only once a receiver took it. */
  private async relayReplies(clientId: number): Promise<void> {
    const since = this.registry.credentialSince(clientId);
    if (!since) return;
    const retry = this.replyChecksAfter.get(clientId);
    if (retry && retry.at > Date.now()) return;
    if (!this.cursorsStarted.has(clientId)) {
      await this.cursors.start(clientId, since);
      this.cursorsStarted.add(clientId);
    }
    let cursor = await this.cursors.lease(clientId, LEASE_S);
    if (!cursor) return;
    try {
      const keptSince = new Date(Math.max(cursor.since.getTime(), Date.now() - this.config.keepS * 1000));
      const query: MessagesAfterQuery = { clientId, afterId: cursor.afterId, receivedSince: keptSince.toISOString(), limit: REPLIES_PER_ROUND };
      const replies = await this.inbox.send<InboxMessageView[]>(Patterns.inbox.messagesAfter, query);
      // Nothing new: inbox is asked again in a second, not every round.
      if (replies.length === 0) this.replyChecksAfter.set(clientId, { at: Date.now() + QUIET_REPLY_CHECK_MS, attempts: 0 });
      for (const reply of replies) {
        const session = this.registry.receiverOf(clientId);
        if (!session) return;
        const delivery = await this.replyDelivery(reply);
        if ((await this.attempt('reply', () => session.deliver(delivery))) !== 'ok') {
          const attempts = (retry?.attempts ?? 0) + 1;
          this.replyChecksAfter.set(clientId, { at: Date.now() + retryDelayS(attempts) * 1000, attempts });
          return;
        }
        this.replyChecksAfter.delete(clientId);
        // Each reply taken renews the lease; a lease lost meanwhile (a receiver slower than LEASE_S) ends the round.
        const advanced = await this.cursors.advance(cursor, reply.id, LEASE_S);
        if (!advanced) return;
        cursor = advanced;
      }
    } finally {
      await this.cursors.release(cursor);
    }
  }

  private async replyDelivery(reply: InboxMessageView): Promise<OutgoingDelivery> {
    const number = reply.phoneId === null || reply.clientId === null ? undefined : await this.phones.numberOf(reply.clientId, reply.phoneId).catch(() => undefined);
    // A receiver needs a destination: the phone's number, or (none recorded) a name for the phone.
    return { sourceAddr: reply.from, destinationAddr: number ?? `smsq-${reply.phoneId ?? 0}`, esmClass: 0, text: reply.message };
  }

  private async attempt(kind: 'receipt' | 'reply', deliver: () => Promise<number>): Promise<'ok' | 'refused' | 'no_answer'> {
    let outcome: 'ok' | 'refused' | 'no_answer';
    try {
      outcome = (await deliver()) === CommandStatus.ESME_ROK ? 'ok' : 'refused';
    } catch (error) {
      this.logger.debug(`${kind} not taken: ${(error as Error).message}`);
      outcome = 'no_answer';
    }
    deliveriesSent.inc({ kind, outcome });
    return outcome;
  }
}

function retryDelayS(attempts: number): number {
  return Math.min(MAX_RETRY_S, 2 ** Math.min(attempts, 10));
}
