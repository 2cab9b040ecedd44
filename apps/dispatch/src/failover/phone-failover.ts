import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RepeatingJob } from '@smsq/platform';
import { inTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { tasksRerouted } from '../metrics/task-counters.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { RoutingService } from '../routing/routing.service.js';
import { FailoverRepository, type TaskMove } from './failover.repository.js';

export const FAILOVER_SWEEP_INTERVAL_MS = 5_000;
const BATCH = 200;
/**
 * Tasks one sweep moves at most, over all phones: 100 a second, far more than phones send (Android
 * lets an app send 30 a minute), while moving costs Deliver little (docs/performance.md, 2b). A
 * larger backlog moves over the next sweeps.
 */
export const MOVES_PER_SWEEP = 500;
/** Tasks disabling a phone moves at once; the sweeps move the rest. */
export const MOVES_ON_DISABLE = 1_000;

/**
 * Moves the waiting tasks of phones that cannot send them (disabled, silent, paused, at their daily limit)
 * to the phone routing would choose now (docs/guide/phones.md, "When a phone goes quiet"). Only tasks no
 * phone holds (never claimed, released, or given back by the phone's word that it sent nothing)
 * and no client pinned move, each by one conditional statement under its row lock, so a claim, a
 * cancel or a report never meets a task on two phones. Each move keeps the
 * task's id, key and credit, and queues `task.rerouted`. Safe with several dispatch instances:
 * rows another holds are skipped.
 */
@Injectable()
export class PhoneFailover implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PhoneFailover.name);
  private readonly job = new RepeatingJob('phone failover', FAILOVER_SWEEP_INTERVAL_MS, () => this.sweepOnce(), this.logger);

  constructor(
    private readonly db: DispatchDatabase,
    private readonly failover: FailoverRepository,
    private readonly routing: RoutingService,
    private readonly outbox: OutboxRepository,
    private readonly signals: DueSignals,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** How many tasks this sweep moved. */
  async sweepOnce(): Promise<number> {
    let moved = 0;
    for (const phone of await this.failover.strandedPhones()) {
      if (moved >= MOVES_PER_SWEEP) break;
      moved += await this.moveFrom(phone.id, MOVES_PER_SWEEP - moved);
    }
    if (moved > 0) this.logger.log(`failover: ${moved} waiting tasks moved off phones that cannot send them`);
    return moved;
  }

  /** Moves up to `most` of the phone's movable tasks while it is not usable and another phone is; how many moved. */
  async moveFrom(phoneId: number, most = MOVES_ON_DISABLE): Promise<number> {
    let moved = 0;
    while (moved < most) {
      const limit = Math.min(BATCH, most - moved);
      const { taken, moves } = await inTransaction(this.db, async (tx) => {
        const tasks = await this.failover.lockMovable(phoneId, limit, tx);
        const targets = await this.routing.chooseUsable(
          tasks.map((task) => ({ clientId: task.clientId, recipient: task.recipient, avoidPhoneId: phoneId })),
          tx,
        );
        const planned = tasks.flatMap((task, i) => {
          const target = targets[i];
          return target ? [{ task, target, move: { id: task.id, to: target.phoneId, sim: target.sim } satisfies TaskMove }] : [];
        });
        const done = new Set((await this.failover.move(phoneId, planned.map((one) => one.move), tx)).map((move) => move.id));
        const moved = planned.filter((one) => done.has(one.task.id));
        // A sticky recipient's phone moves with its task: where it goes now is where it is kept.
        await this.routing.recordAssignments(
          tx,
          moved.map(({ task, target }) => ({ ...target, clientId: task.clientId, recipient: task.recipient })),
        );
        await this.outbox.enqueueTaskEvents(
          tx,
          'task.rerouted',
          moved.map(({ task }) => task.id),
        );
        return { taken: tasks.length, moves: moved.map(({ move }) => move) };
      });
      moved += moves.length;
      tasksRerouted.inc({ reason: 'failover' }, moves.length);
      if (moves.length > 0) void this.signals.announce(new Set(moves.map((move) => move.to)));
      if (taken < limit || moves.length === 0) break;
    }
    return moved;
  }
}
