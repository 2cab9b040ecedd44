import type { Logger } from '@nestjs/common';
import { isInfrastructureOutage } from '../errors/infrastructure-outage.js';

/**
 * Runs `work` every `intervalMs`, measured from the end of one run to the start of the next, so
 * two runs of one instance never overlap. `stop` waits for a run under way to finish.
 */
export class RepeatingJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** `runSoon` was called during a run: the next one starts straight after it. */
  private again = false;
  /** Runs fail because a server is away; said once, until a run works again. */
  private serverAway = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** The next run starts now instead of after the interval, or straight after the one under way. */
  runSoon(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.work()
        .then(
          () => this.worked(),
          (error: unknown) => this.failed(error),
        )
        .finally(() => {
          this.running = undefined;
          const again = this.again;
          this.again = false;
          this.schedule(again ? 0 : this.intervalMs);
        });
    }, delayMs);
    // A job alone never keeps the process alive: the servers do.
    this.timer.unref();
  }

  private worked(): void {
    if (!this.serverAway) return;
    this.serverAway = false;
    this.logger.log(`${this.name} succeeded again`);
  }

  /** A bug is logged with its stack each time; a server away (an outage), in one line once, however many runs it fails. */
  private failed(error: unknown): void {
    if (!isInfrastructureOutage(error)) {
      this.logger.error(`${this.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return;
    }
    if (this.serverAway) return;
    this.serverAway = true;
    // Prisma's messages span several lines.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
    this.logger.warn(`${this.name} failed: ${reason}; retrying`);
  }
}
