import { Injectable, Logger } from '@nestjs/common';
import {
  ConflictError,
  countSegments,
  DomainError,
  leavesOutcomeOpen,
  outcomeOf,
  RecipientOptedOutError,
  UnavailableError,
  valueOf,
  type DebitResult,
  type ItemOutcome,
  type TaskCreateCommand,
  type TaskCreated,
  type TaskSettlement,
  type TaskView,
} from '@smsq/contracts';
import { sentWithCommit } from '@smsq/persistence';
import { BillingClient } from '../billing/billing.client.js';
import { DispatchConfig } from '../config/dispatch-config.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { tasksCreated } from '../metrics/task-counters.js';
import { keyOf, OptOutsRepository } from '../opt-outs/opt-outs.repository.js';
import { RoutingService, type Route, type RouteChoice } from '../routing/routing.service.js';
import { TaskSettlementService } from './task-settlement.service.js';
import { TasksRepository, type NewTask, type TaskKeyState } from './tasks.repository.js';
import { toTaskView } from './task-view.js';

const VOIDED_DETAIL = 'this request was abandoned before its task was stored; send it again';
const BILLING_SILENT_DETAIL = 'the billing service did not answer; retry later';

/**
 * The longest a pending-tasks long poll waits (DESIGN §3: `wait` above 30 counts as 30). A poll
 * sleeps until the earliest due task it knows of, so a task due sooner than that wakes it too.
 */
const LONGEST_POLL_MS = 30_000;

/** What storing one create came to: its task, or why it has none. */
type Stored = { task: TaskView } | { error: unknown };

/** A create of a batch on its way through: its place in the batch and its command. */
interface Create {
  index: number;
  command: TaskCreateCommand;
}

/** A create whose credit billing took. */
interface Debited extends Create {
  debit: DebitResult;
}

/**
 * Queues SMS: for each, the route, the debit and the stored task are one outcome. A key that
 * cannot get its task is voided, so billing refunds its debit (now, or by its settlement sweep)
 * and a late retry can never create the task behind the caller's back.
 *
 * Creates come in batches (a gateway gathers those that arrive while its previous batch is under
 * way): the batch is routed with one query, debited with one billing message, and stored with one
 * transaction and one statement, while each create keeps its own rules and answer, exactly as if
 * it had come alone (docs/decisions.md, "Creates in batches").
 */
@Injectable()
export class TaskCreationService {
  private readonly logger = new Logger(TaskCreationService.name);

  constructor(
    private readonly tasks: TasksRepository,
    private readonly routing: RoutingService,
    private readonly billing: BillingClient,
    private readonly settlement: TaskSettlementService,
    private readonly signals: DueSignals,
    private readonly config: DispatchConfig,
    private readonly optOuts: OptOutsRepository,
    private readonly conversations: ConversationsRepository,
  ) {}

  /** The client's own expiry, or else the server's maximum age counted from when the task is due. */
  private expiryOf(command: TaskCreateCommand): Date | null {
    if (command.expiresAt) return new Date(command.expiresAt);
    if (this.config.taskMaxAgeS === undefined) return null;
    return new Date(Math.max(Date.parse(command.scheduledAt), Date.now()) + this.config.taskMaxAgeS * 1000);
  }

  async create(command: TaskCreateCommand): Promise<TaskCreated> {
    const [outcome] = await this.createMany([command]);
    return valueOf(outcome!);
  }

  /** Each create's answer, in order: what `create` would have answered or thrown for it alone. */
  async createMany(received: readonly TaskCreateCommand[]): Promise<ItemOutcome<TaskCreated>[]> {
    // One spelling per key, so that the batch's own bookkeeping and its locks see a key once.
    const commands = received.map((command) => ({ ...command, taskKey: command.taskKey.toLowerCase() }));
    const outcomes: Array<ItemOutcome<TaskCreated> | Promise<ItemOutcome<TaskCreated>>> = [];
    const fresh: Create[] = [];
    const again: Create[] = [];
    const keys = new Set<string>();
    const { states, optedOut, routes } = await this.lookUp(commands);
    const now = Date.now();
    commands.forEach((command, index) => {
      const state = states[index]!;
      // A broker delivery that arrives after the caller gave up must not act.
      if (Date.parse(command.deadline) <= now) outcomes[index] = failure(new UnavailableError('the request expired before it was handled'));
      else if (state.stored) outcomes[index] = outcomeOf(this.answerRepeat(command));
      else if (state.voided) outcomes[index] = failure(new UnavailableError(VOIDED_DETAIL));
      else if (keys.has(command.taskKey)) again.push({ index, command });
      else {
        keys.add(command.taskKey);
        fresh.push({ index, command });
      }
    });
    const created = this.createFresh(fresh, optedOut, routes);
    for (const create of fresh) outcomes[create.index] = created.then((answers) => answers.get(create.index)!);
    // The same key twice in one batch: the second waits for the first and is then its repeat.
    for (const create of again) outcomes[create.index] = created.then(() => outcomeOf(this.create(create.command)));
    return Promise.all(outcomes);
  }

  /**
   * What is known of the creates before billing is asked, read at once: each key's state, the
   * opt-outs among their recipients, and a route for each. A pre-check's route never depends on
   * the batch's other creates (it falls back to any active phone), and a create that turns out to
   * be a repeat ignores its own, so all three can be read for all of them side by side.
   */
  private async lookUp(commands: readonly TaskCreateCommand[]): Promise<{ states: TaskKeyState[]; optedOut: Set<string>; routes: RouteChoice[] }> {
    const [states, optedOut, routes] = await Promise.all([
      this.tasks.keyStates(commands.map((command) => command.taskKey)),
      this.optOuts.optedOutAmong(commands),
      this.routing.chooseMany(commands),
    ]);
    return { states, optedOut, routes };
  }

  private async createFresh(creates: Create[], optedOut: Set<string>, routes: readonly RouteChoice[]): Promise<Map<number, ItemOutcome<TaskCreated>>> {
    const answers = new Map<number, ItemOutcome<TaskCreated>>();
    const answer = (create: Create, outcome: ItemOutcome<TaskCreated>) => answers.set(create.index, outcome);
    if (creates.length === 0) return answers;

    // A recipient on the client's opt-out list is refused before anything is charged; and, as the
    // contract checks phone / gateway before credits, so is a task with nowhere to go.
    const routed = creates.filter((create) => {
      const route = routes[create.index]!;
      if (optedOut.has(keyOf(create.command))) answer(create, failure(new RecipientOptedOutError(create.command.recipient)));
      else if (route instanceof DomainError) answer(create, failure(route));
      return !optedOut.has(keyOf(create.command)) && !(route instanceof DomainError);
    });

    const debited = await this.debit(routed, answer);
    const stored = await this.store(debited).catch((error: unknown) => debited.map((): Stored => ({ error })));
    const due: number[] = [];
    // Undone one after another: a batch that could not be stored must not flood the database with settlements.
    for (const [i, create] of debited.entries()) {
      const result = stored[i]!;
      const task = 'task' in result ? { ok: true as const, value: result.task } : await outcomeOf(this.undoDebit(create.command.taskKey, result.error));
      if (!task.ok) {
        answer(create, task);
        continue;
      }
      answer(create, { ok: true, value: { task: task.value, creditsRemaining: create.debit.creditsRemaining } });
      if (Date.parse(create.command.scheduledAt) <= Date.now() + LONGEST_POLL_MS) due.push(task.value.phoneId);
    }
    // After the answer has gone out: the signal wakes long polls, and need not hold up the caller.
    if (due.length > 0) setImmediate(() => void this.signals.announce(new Set(due)));
    return answers;
  }

  /** One billing message for the batch; the creates debited go on, the others are answered here. */
  private async debit(creates: Create[], answer: (create: Create, outcome: ItemOutcome<TaskCreated>) => void): Promise<Debited[]> {
    if (creates.length === 0) return [];
    const debits = await this.billing.debitMany(creates.map(({ command }) => debitOf(command))).catch(() => undefined);
    const debited: Debited[] = [];
    for (const [i, create] of creates.entries()) {
      const debit = debits?.[i];
      if (debit?.ok) debited.push({ ...create, debit: debit.value });
      else if (debit && !leavesOutcomeOpen(debit.error.error)) answer(create, { ok: false, error: debit.error });
      else {
        // Billing may have taken the credit though its answer never came; a voided key is refunded by its sweep.
        // One key after another: a batch billing could not answer must not flood the database with settlements.
        await this.voidKey(create.command.taskKey);
        answer(create, failure(new UnavailableError(BILLING_SILENT_DETAIL)));
      }
    }
    return debited;
  }

  /**
   * Stores the debited creates in one transaction holding their keys' locks: each key is checked
   * again (a redelivery may have stored its task, a settlement voided it, while billing was asked)
   * and routed again under the pools' locks. Each item is its stored task or why it is not stored.
   */
  private async store(creates: Create[]): Promise<Stored[]> {
    if (creates.length === 0) return [];
    const taskKeys = creates.map(({ command }) => command.taskKey);
    const { results, inserted } = await this.tasks.underKeyLocks(taskKeys, async (tx) => {
      const results: Stored[] = [];
      const toRoute: number[] = [];
      const commands = creates.map(({ command }) => command);
      // Sent together, in this order, and run once the key locks are held: the opt-out locks (held
      // until the tasks commit: an opt-out of one of these numbers waits for them, so it cancels
      // them, or they see it here and are refunded), the reads, and a route for every create (the
      // pools' locks and reads; the chosen phones' lock follows their answer). The route counts
      // only where every create turns out fresh; otherwise the ones left are routed again.
      const [, optedOut, states, routedAll] = await Promise.all([
        this.optOuts.lockForCreates(tx, commands),
        this.optOuts.optedOutAmong(commands, tx),
        this.tasks.keyStates(taskKeys, tx),
        this.routing.chooseMany(commands, tx),
      ]);
      for (const [position, state] of states.entries()) {
        const { command } = creates[position]!;
        if (state.voided) results[position] = { error: new UnavailableError(VOIDED_DETAIL) };
        else if (state.stored) results[position] = { task: toTaskView((await this.tasks.findByKey(taskKeys[position]!, tx))!) };
        else if (optedOut.has(keyOf(command))) results[position] = { error: new RecipientOptedOutError(command.recipient) };
        else toRoute.push(position);
      }
      if (toRoute.length === 0) return { results };
      const routes = toRoute.length === creates.length ? routedAll : await this.routing.chooseMany(toRoute.map((position) => commands[position]!), tx);
      const toInsert: Array<{ position: number; route: Route }> = [];
      toRoute.forEach((position, i) => {
        const route = routes[i]!;
        if (route instanceof DomainError) results[position] = { error: route };
        else toInsert.push({ position, route });
      });
      if (toInsert.length === 0) return { results };
      const newTasks = toInsert.map(({ position, route: { phoneId, sim, sticky } }): NewTask => {
        const command = commands[position]!;
        return {
          taskKey: command.taskKey,
          clientId: command.clientId,
          phoneId,
          sim,
          sticky,
          highPriority: command.priority === 'high',
          receipts: command.receipts === true,
          // A sealed message's parts are unknown until its worker reports them: it counts 1 until then.
          parts: command.encrypted ? 1 : countSegments(command.message),
          encrypted: command.encrypted === true,
          recipient: command.recipient,
          message: command.message,
          scheduledAt: new Date(command.scheduledAt),
          scheduledLocal: command.scheduledLocal,
          expiresAt: this.expiryOf(command),
          // Routing honours a requested phone whenever it is usable: given it, the client chose it.
          pinned: command.requestedPhoneId === phoneId,
        };
      });
      // Both go out with the COMMIT: the rows are read once it has answered (either failing on the server fails it).
      const rows = this.tasks.insertMany(newTasks, tx);
      sentWithCommit(rows);
      sentWithCommit(this.conversations.touchOutgoing(tx, newTasks));
      return { results, inserted: { toInsert, rows } };
    });
    if (inserted) {
      const rows = await inserted.rows;
      inserted.toInsert.forEach(({ position }, i) => (results[position] = { task: toTaskView(rows[i]!) }));
      tasksCreated.inc(rows.length);
    }
    return results;
  }

  /** A retry or redelivery: billing's debit is idempotent per key, so repeating it charges nothing and tells the balance. */
  private async answerRepeat(command: TaskCreateCommand): Promise<TaskCreated> {
    const task = await this.tasks.findByKey(command.taskKey);
    if (!task) throw new UnavailableError('the task of this request is being settled; retry later');
    if (task.clientId !== command.clientId) throw new ConflictError('this task key belongs to another request');
    const debit = await this.billing.debit(debitOf(command));
    return { task: toTaskView(task), creditsRemaining: debit.creditsRemaining };
  }

  /** The debit was taken but the task could not be stored: void the key, give the credit back, report the failure. */
  private async undoDebit(taskKey: string, error: unknown): Promise<TaskView> {
    const settlement = await this.voidKey(taskKey);
    // The insert committed though its answer was lost, or a redelivery stored it: the task exists after all.
    if (settlement?.outcome === 'created') return settlement.task;
    if (settlement?.outcome === 'voided') this.requestRefund(taskKey);
    if (error instanceof DomainError) throw error;
    this.logger.error(`task ${taskKey} was debited but not stored: ${describe(error)}`);
    throw new UnavailableError();
  }

  /** Settles the key; if even that fails, the key stays open and billing's settlement sweep decides it later. */
  private async voidKey(taskKey: string): Promise<TaskSettlement | undefined> {
    try {
      return await this.settlement.settle(taskKey);
    } catch (error) {
      this.logger.error(`task key ${taskKey} could not be voided: ${describe(error)}`);
      return undefined;
    }
  }

  private requestRefund(taskKey: string): void {
    // Best effort: if this is lost, billing's settlement sweep finds the key voided and refunds it anyway.
    void this.billing.refund({ taskKey, reason: 'task_not_created' }).catch((error: unknown) => {
      this.logger.warn(`refund of voided task key ${taskKey} not confirmed: ${describe(error)}`);
    });
  }
}

function debitOf(command: TaskCreateCommand) {
  return { taskKey: command.taskKey, clientId: command.clientId, deadline: command.deadline };
}

function failure(error: DomainError): ItemOutcome<TaskCreated> {
  return { ok: false, error: error.toBody() };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
