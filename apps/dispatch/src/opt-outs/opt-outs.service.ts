import { Injectable, Logger } from '@nestjs/common';
import {
  E164,
  InvalidRequestError,
  keywordIntent,
  NotFoundError,
  ownKeyword,
  ownKeywordsConflict,
  type Ok,
  type OptOutAddCommand,
  type OptOutCheckQuery,
  type OptOutListQuery,
  type OptOutPage,
  type OptOutRemoveCommand,
  type OptOutSettingsUpdate,
  type OptOutSettingsView,
  type OptOutsAdded,
  type OptOutSource,
  type ReplyReceivedCommand,
  withoutSeparators,
} from '@smsq/contracts';
import { randomUUID } from 'node:crypto';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { pageCursorOf, parsePageCursor } from '../database/page-cursor.js';
import { isStoredId } from '../database/stored-id.js';
import { tasksFailed } from '../metrics/task-counters.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { refundOfFailedTask } from '../outbox/refund-message.js';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository.js';
import { keyOf, OptOutsRepository } from './opt-outs.repository.js';

/**
 * Each client's opt-out list: numbers its recipients took off by replying STOP (or the client's
 * own words), or that the client put there. Creates to them are refused before any charge
 * (TaskCreationService); an opt-out cancels and refunds what was queued to the number, unless the
 * client turned that off; each change is told to the client's webhooks.
 */
@Injectable()
export class OptOutsService {
  private readonly logger = new Logger(OptOutsService.name);

  constructor(
    private readonly db: DispatchDatabase,
    private readonly optOuts: OptOutsRepository,
    private readonly outbox: OutboxRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async list(query: OptOutListQuery): Promise<OptOutPage> {
    const after = query.cursor === undefined ? undefined : parsePageCursor(query.cursor);
    if (!isStoredId(query.clientId)) return { items: [], nextCursor: null };
    const items = await this.optOuts.page(query.clientId, query.limit + 1, after, query.search === undefined ? undefined : searchedDigits(query.search));
    const page = items.slice(0, query.limit);
    const last = page.at(-1);
    return { items: page, nextCursor: items.length > query.limit && last ? pageCursorOf(last.optedOutAt, last.number) : null };
  }

  /** Numbers already on the list stay as they were; the others are added now, and their queued tasks cancelled. */
  async add(command: OptOutAddCommand): Promise<OptOutsAdded> {
    const numbers = [...new Set(command.numbers)];
    const { cancelQueued } = await this.optOuts.settingsOf(command.clientId);
    const { added, cancelled } = await inTransaction(this.db, async (tx) => {
      await this.optOuts.lockForChange(tx, numbers.map((recipient) => ({ clientId: command.clientId, recipient })));
      const added = await this.optOuts.addMany(tx, command.clientId, numbers, new Date(), command.source);
      const cancelled = cancelQueued ? await this.cancelQueued(tx, command.clientId, added) : 0;
      await this.announce(tx, command.clientId, added, 'recipient.opted_out', command.source, null);
      return { added: added.length, cancelled };
    });
    if (cancelled > 0) tasksFailed.inc({ reason: 'opted_out' }, cancelled);
    return { added, cancelled };
  }

  async remove(command: OptOutRemoveCommand): Promise<Ok> {
    const removed = await inTransaction(this.db, async (tx) => {
      const outcome = await this.change(tx, command.clientId, command.number, false, null, command.source, null);
      return outcome === 'changed';
    });
    if (!removed) throw new NotFoundError('number on the opt-out list');
    return { ok: true };
  }

  async check(query: OptOutCheckQuery): Promise<string[]> {
    const numbers = [...new Set(query.numbers)].map((recipient) => ({ clientId: query.clientId, recipient }));
    const optedOut = await this.optOuts.optedOutAmong(numbers);
    return numbers.filter((one) => optedOut.has(keyOf(one))).map((one) => one.recipient);
  }

  settings(clientId: number): Promise<OptOutSettingsView> {
    return this.optOuts.settingsOf(clientId);
  }

  /** Own words are kept in the form replies are compared in; a word that is not one word, or that would both opt out and opt in, is refused. */
  async updateSettings(update: OptOutSettingsUpdate): Promise<OptOutSettingsView> {
    const current = await this.optOuts.settingsOf(update.clientId);
    const next: OptOutSettingsView = {
      optOutWords: update.optOutWords === undefined ? current.optOutWords : ownWords(update.optOutWords, 'opt_out_words'),
      optInWords: update.optInWords === undefined ? current.optInWords : ownWords(update.optInWords, 'opt_in_words'),
      cancelQueued: update.cancelQueued ?? current.cancelQueued,
    };
    // Checked only when words change, so settings saved before the standard words counted still take a cancel_queued.
    const conflict = update.optOutWords === undefined && update.optInWords === undefined ? null : ownKeywordsConflict(next);
    if (conflict !== null) throw new InvalidRequestError(conflict);
    await this.optOuts.saveSettings(update.clientId, next);
    return next;
  }

  /**
   * A reply relayed from inbox (at least once): when its whole text is a keyword, its sender's
   * state changes as of when it came. A repeat, or a reply older than the number's latest change,
   * changes nothing.
   */
  async fromReply(command: ReplyReceivedCommand): Promise<void> {
    // A sender in any form but E.164 cannot match a stored recipient, so it cannot be on the list.
    const number = withoutSeparators(command.from);
    if (!E164.test(number)) return;
    const settings = await this.optOuts.settingsOf(command.clientId);
    // smsq cannot read a sealed reply: its worker read it, and said which keyword it is, if any.
    const intent = command.encrypted ? (command.keyword ?? null) : keywordIntent(command.message, settings);
    if (intent === null) return;
    const cancelled = await inTransaction(this.db, async (tx) => {
      const outcome = await this.change(tx, command.clientId, number, intent === 'opt_out', new Date(command.receivedAt), 'reply', command.messageId);
      return outcome === 'changed' && intent === 'opt_out' && settings.cancelQueued ? this.cancelQueued(tx, command.clientId, [number]) : 0;
    });
    if (cancelled > 0) tasksFailed.inc({ reason: 'opted_out' }, cancelled);
    this.logger.log(`client ${command.clientId}: ${number} replied ${intent === 'opt_out' ? 'an opt-out' : 'an opt-in'} keyword${cancelled > 0 ? `; ${cancelled} queued task(s) cancelled` : ''}`);
  }

  /** One number's change under its lock, told to the client's webhooks when it took. `at` null: now, after any change recorded. */
  private async change(tx: DbTransaction, clientId: number, number: string, optedOut: boolean, at: Date | null, source: OptOutSource, messageId: number | null) {
    await this.optOuts.lockForChange(tx, [{ clientId, recipient: number }]);
    const outcome = await this.optOuts.change(tx, clientId, number, optedOut, at, source);
    if (outcome === 'changed') await this.announce(tx, clientId, [number], optedOut ? 'recipient.opted_out' : 'recipient.opted_in', source, messageId);
    return outcome;
  }

  /** Fails the client's queued tasks to these numbers (`opted_out`), with their refunds and `task.cancelled`, in the change's transaction. */
  private async cancelQueued(tx: DbTransaction, clientId: number, numbers: readonly string[]): Promise<number> {
    const failed = await this.optOuts.failQueuedTo(tx, clientId, numbers);
    await this.outbox.enqueue(tx, failed.map((task) => refundOfFailedTask(task.taskKey, 'task_cancelled')));
    await this.outbox.enqueueTaskEvents(tx, 'task.cancelled', failed.map((task) => task.id));
    return failed.length;
  }

  private async announce(tx: DbTransaction, clientId: number, numbers: readonly string[], type: 'recipient.opted_out' | 'recipient.opted_in', source: OptOutSource, messageId: number | null): Promise<void> {
    const createdAt = new Date().toISOString();
    const events = numbers.map((number) => {
      const eventId = randomUUID();
      return { clientId, eventId, taskId: null, body: JSON.stringify({ id: eventId, type, created_at: createdAt, data: { number, source, message_id: messageId } }) };
    });
    await this.deliveries.queueFixed(type, events, tx);
  }
}

function ownWords(words: readonly string[], field: string): string[] {
  const kept = words.map((word) => {
    const form = ownKeyword(word);
    if (form === null) throw new InvalidRequestError(`${field}: ${JSON.stringify(word.slice(0, 40))} is not one word of letters or digits`);
    return form;
  });
  return [...new Set(kept)];
}

/**
 * What a search is looked for as: numbers are kept in E.164, so the zeros a national form
 * (`0645509401`) or an international prefix (`00381…`) starts with are dropped, and the digits
 * after them found inside `+381645509401`. A search with `+` is already in the stored form.
 */
function searchedDigits(search: string): string {
  if (search.startsWith('+')) return search;
  return search.replace(/^0+/, '') || search;
}
