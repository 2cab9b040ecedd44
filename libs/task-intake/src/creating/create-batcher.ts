import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  MAX_BATCH_ITEMS,
  Patterns,
  UnavailableError,
  valueOf,
  type BatchAnswer,
  type TaskCreateBatchCommand,
  type TaskCreateCommand,
  type TaskCreated,
} from '@smsq/contracts';
import { metricsRegistry, ServiceClient, serviceClientToken } from '@smsq/platform';
import { Gauge, Histogram } from 'prom-client';
import { TaskIntakeSettings } from './task-intake-settings.js';

const waitingCreates = new Gauge({
  name: 'smsq_task_creates_waiting',
  help: 'Creates (create-task, create-tasks items, submit_sm) gathered for the next batch to dispatch',
  registers: [metricsRegistry],
});

const batchSizes = new Histogram({
  name: 'smsq_task_create_batch_size',
  help: 'Creates per batch sent to dispatch',
  buckets: [1, 2, 4, 8, 16, 32, 64, 100],
  registers: [metricsRegistry],
});

/** Room for dispatch to answer before its caller stops waiting; work past the deadline is refused. */
export const DEADLINE_MARGIN_MS = 1_000;

interface Waiting {
  command: TaskCreateCommand;
  resolve(created: TaskCreated): void;
  reject(error: unknown): void;
}

/**
 * Sends creates to dispatch in batches, group-commit style: a create goes at once while fewer
 * than `createBatchesInFlight` batches are under way, and otherwise waits for the next batch with
 * those that arrive meanwhile. A lone request never waits for company; under load each message,
 * debit transaction and insert carries many creates (docs/decisions.md, "Creates in batches").
 * Each create is answered, or fails, exactly as if it had been sent alone.
 */
@Injectable()
export class CreateBatcher {
  private readonly waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(
    private readonly config: TaskIntakeSettings,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  /** Rejects with the DomainError dispatch gave this create, or `unavailable` when its batch got no answer. */
  create(command: TaskCreateCommand): Promise<TaskCreated> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ command, resolve, reject });
      waitingCreates.inc();
      this.sendWhileRoom();
    });
  }

  private sendWhileRoom(): void {
    while (this.waiting.length > 0 && this.inFlight < this.config.createBatchesInFlight) {
      const taken = this.waiting.splice(0, MAX_BATCH_ITEMS);
      waitingCreates.dec(taken.length);
      const now = Date.now();
      const batch: Waiting[] = [];
      for (const waiting of taken) {
        // A create that waited past its deadline is not sent: dispatch would refuse it, and its caller must not wait longer.
        if (Date.parse(waiting.command.deadline) > now) batch.push(waiting);
        else waiting.reject(new UnavailableError('the request expired before it was handled'));
      }
      if (batch.length === 0) continue;
      batchSizes.observe(batch.length);
      this.inFlight += 1;
      void this.send(batch).finally(() => {
        this.inFlight -= 1;
        this.sendWhileRoom();
      });
    }
  }

  private async send(batch: Waiting[]): Promise<void> {
    const command: TaskCreateBatchCommand = { creates: batch.map((waiting) => waiting.command) };
    // As long as the latest deadline in the batch, plus the room dispatch has to answer past it.
    const latestDeadline = Math.max(...command.creates.map((create) => Date.parse(create.deadline)));
    const timeoutMs = Math.max(1, latestDeadline + DEADLINE_MARGIN_MS - Date.now());
    try {
      const answer = await this.dispatch.send<BatchAnswer<TaskCreated>>(Patterns.dispatch.taskCreateBatch, command, { timeoutMs });
      batch.forEach((waiting, index) => {
        const outcome = answer.results[index];
        try {
          if (!outcome) throw new UnavailableError('the dispatch service answered without this task; retry later');
          waiting.resolve(valueOf(outcome));
        } catch (error) {
          waiting.reject(error);
        }
      });
    } catch (error) {
      // A refusal of the whole message (its shape) says nothing final about each create in it: their outcome is open.
      const final = error instanceof DomainError && error.status < 500 && batch.length > 1;
      for (const waiting of batch) waiting.reject(final ? new DomainError('internal_error', 'the batch of this request was refused') : error);
    }
  }
}
