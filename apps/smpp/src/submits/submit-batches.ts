import { Inject, Injectable } from '@nestjs/common';
import { domainErrorFrom, MAX_TASKS_PER_REQUEST, Patterns, type CreatedTaskBody, type CreateTasksBody, type RefusedItemBody, type TasksSendCommand } from '@smsq/contracts';
import { serviceClientToken, type ServiceClient } from '@smsq/platform';
import { randomUUID } from 'node:crypto';

/** Batches of one client under way to the gateway at once; the next gathers what arrives meanwhile. */
const BATCHES_IN_FLIGHT = 4;
/** How often a batch whose outcome is open is asked, and how long apart. */
const ATTEMPTS = 3;
const RETRY_AFTER_MS = 1_000;
/** The most submits one batch carries. */
const MAX_BATCH = Math.min(100, MAX_TASKS_PER_REQUEST);

interface Waiting {
  body: Record<string, unknown>;
  resolve(answer: CreatedTaskBody | RefusedItemBody): void;
  reject(error: unknown): void;
}

interface Queue {
  waiting: Waiting[];
  inFlight: number;
}

/**
 * Sends a client's submits to the gateway's create-tasks in batches, group-commit style: a submit
 * goes at once while fewer than BATCHES_IN_FLIGHT batches of its client (and receipt wish) are
 * under way, and otherwise waits for the next with those that arrive meanwhile. A lone submit never
 * waits; a bind keeping ten outstanding sends one broker request for several. Each item is
 * answered as create-tasks answers it, exactly as if sent alone.
 */
@Injectable()
export class SubmitBatches {
  private readonly queues = new Map<string, Queue>();

  constructor(@Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient) {}

  /** The item's answer, or the error of its whole batch (the gateway away all along: its outcome unknown). */
  send(clientId: number, receipts: boolean, body: Record<string, unknown>): Promise<CreatedTaskBody | RefusedItemBody> {
    const key = `${clientId}:${receipts}`;
    const queue = this.queues.get(key) ?? { waiting: [], inFlight: 0 };
    this.queues.set(key, queue);
    return new Promise((resolve, reject) => {
      queue.waiting.push({ body, resolve, reject });
      this.sendWhileRoom(key, queue, clientId, receipts);
    });
  }

  private sendWhileRoom(key: string, queue: Queue, clientId: number, receipts: boolean): void {
    while (queue.waiting.length > 0 && queue.inFlight < BATCHES_IN_FLIGHT) {
      const batch = queue.waiting.splice(0, MAX_BATCH);
      queue.inFlight += 1;
      void this.sendBatch(clientId, receipts, batch).finally(() => {
        queue.inFlight -= 1;
        if (queue.waiting.length > 0) this.sendWhileRoom(key, queue, clientId, receipts);
        else if (queue.inFlight === 0) this.queues.delete(key);
      });
    }
  }

  /**
   * Under an Idempotency-Key of its own, so that a batch whose answer got lost (the gateway slow,
   * the broker reconnecting) is asked again and answered as it was first answered, never queued
   * twice: up to ATTEMPTS times, while the gateway is away or still at the first attempt.
   */
  private async sendBatch(clientId: number, receipts: boolean, batch: Waiting[]): Promise<void> {
    const command: TasksSendCommand = { clientId, tasks: batch.map((waiting) => waiting.body), idempotencyKey: randomUUID(), ...(receipts ? { receipts } : {}) };
    let answer: CreateTasksBody;
    try {
      answer = await this.askAgainWhileOpen(command);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => {
      const result = answer.results[index];
      if (result) waiting.resolve(result);
      else waiting.reject(new Error('the gateway answered without this submit'));
    });
  }

  private async askAgainWhileOpen(command: TasksSendCommand): Promise<CreateTasksBody> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.gateway.send<CreateTasksBody>(Patterns.gateway.tasksSend, command);
      } catch (error) {
        const code = domainErrorFrom(error)?.code;
        // A refusal of the whole request is final; no answer (a time-out), `unavailable`, or the first attempt still under way (`conflict`) leave it open.
        const open = code === undefined || code === 'unavailable' || code === 'conflict';
        if (!open || attempt >= ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
      }
    }
  }
}
