import type { Logger } from '@nestjs/common';

/**
 * Runs `work` every `intervalMs`, measured from the end of one run to the start of the next, so
 * two runs of one instance never overlap. `stop` waits for a run under way to finish.
 */
export class RepeatingJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

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

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.work()
        .then(
          () => undefined,
          (error: unknown) => this.logger.error(`${this.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.intervalMs);
    // A job alone never keeps the process alive: the servers do.
    this.timer.unref();
  }
}
