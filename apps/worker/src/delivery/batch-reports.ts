import { reasonOf } from '../http/http-answers.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { ParsedPoll } from '../smsq/pending-task.js';
import type { HeldReport, TaskReporter } from './task-reporter.js';

interface Reported {
  accepted: Set<number>;
  next?: ParsedPoll[];
}

/**
 * The outcomes of one claimed batch, reported together when the batch is done, or sooner once the
 * first of them has waited `holdMs`: a send that hangs (a phone that takes the SMS and never
 * answers) must not hold back the reports of the tasks sent before it until their claims lapse,
 * or the lease would hand a sent task out again. Only the last report claims the next batch.
 */
export class BatchReports {
  private held: HeldReport[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly early: Promise<Reported>[] = [];

  constructor(
    private readonly reporter: Pick<TaskReporter, 'reportMany'>,
    private readonly log: WorkerLog,
    private readonly holdMs: number,
  ) {}

  add(report: HeldReport): void {
    this.held.push(report);
    this.timer ??= setTimeout(() => this.now(), this.holdMs);
  }

  /** Reports what is held at once, without waiting for the batch's end. */
  now(): void {
    if (this.held.length > 0) this.early.push(this.send());
  }

  /** Reports what is still held, asking for `next` tasks with it; resolves once every report of the batch is settled. */
  async finish(next: number | undefined): Promise<Reported> {
    const last = this.held.length > 0 ? await this.send(next) : { accepted: new Set<number>() };
    const accepted = new Set(last.accepted);
    for (const reported of await Promise.all(this.early)) for (const id of reported.accepted) accepted.add(id);
    return last.next === undefined ? { accepted } : { accepted, next: last.next };
  }

  private async send(next?: number): Promise<Reported> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const owed = this.held;
    this.held = [];
    try {
      return await this.reporter.reportMany(owed, next);
    } catch (error) {
      // reportMany answers whatever happens; should it throw, the leases return these tasks.
      this.log.error('reports lost', { tasks: owed.map((entry) => entry.report.id).join(','), reason: reasonOf(error) });
      return { accepted: new Set() };
    }
  }
}
