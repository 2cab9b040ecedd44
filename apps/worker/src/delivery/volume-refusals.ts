/**
 * The phones whose carrier (or Android) refused a send for volume, so that the tasks this worker
 * claimed for them before smsq heard of it are given back unsent instead of being refused in turn:
 * smsq pauses such a phone when the `carrier_volume` report lands, and from then on claims nothing
 * for it. A task claimed while a refusal's report is on its way, or before it landed, is stale; one
 * claimed after (the phone resumed) is sent as usual. Phones are the pacer's keys (gateway URLs).
 */
export class VolumeRefusals {
  /** Refusal reports still on their way to smsq, per phone. */
  private readonly reporting = new Map<string, number>();
  /** When the phone's last refusal report was settled (taken by smsq, or given up). */
  private readonly settledAt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The phone refused a send for volume; its report to smsq is under way. */
  refused(phone: string): void {
    this.reporting.set(phone, (this.reporting.get(phone) ?? 0) + 1);
  }

  /** That refusal's report is settled: smsq has paused the phone, or will never hear of it. */
  reported(phone: string): void {
    const left = (this.reporting.get(phone) ?? 0) - 1;
    if (left > 0) this.reporting.set(phone, left);
    else this.reporting.delete(phone);
    this.settledAt.set(phone, this.now());
  }

  /** Whether a task claimed for `phone` at `receivedAt` predates smsq's pause of it. */
  isStale(phone: string, receivedAt: number): boolean {
    if (this.reporting.has(phone)) return true;
    const settled = this.settledAt.get(phone);
    return settled !== undefined && receivedAt <= settled;
  }
}
