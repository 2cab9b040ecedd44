import { sleep } from '../delivery/backoff.js';
import type { PhoneDriver } from '../drivers/phone-driver.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { SmsqClient } from '../smsq/smsq-client.js';

/** Tells smsq the phone's battery and connection every `intervalMs`, for the dashboard's Phones page. */
export class HealthReporter {
  private lastProblem: string | undefined;

  constructor(
    private readonly driver: Pick<PhoneDriver, 'health'>,
    private readonly smsq: Pick<SmsqClient, 'postPhoneHealth'>,
    private readonly log: WorkerLog,
    private readonly intervalMs: number,
  ) {}

  async run(signal: AbortSignal): Promise<void> {
    if (!this.driver.health || this.intervalMs === 0) return;
    while (!signal.aborted) {
      await this.reportOnce(signal);
      await sleep(this.intervalMs, signal);
    }
  }

  async reportOnce(signal: AbortSignal): Promise<void> {
    const health = await this.driver.health?.(signal);
    if (health === undefined || signal.aborted) return this.problem('the phone did not say how it is');
    const answer = await this.smsq.postPhoneHealth(health);
    if (answer.kind !== 'accepted') return this.problem(answer.kind === 'refused' ? `smsq answered ${answer.status}: ${answer.reason}` : `smsq unreachable: ${answer.reason}`);
    if (this.lastProblem !== undefined) this.log.info('phone health reported again');
    this.lastProblem = undefined;
  }

  /** One line per kind of trouble, not one every interval. */
  private problem(reason: string): void {
    if (reason !== this.lastProblem) this.log.warn('phone health not reported', { reason });
    this.lastProblem = reason;
  }
}
