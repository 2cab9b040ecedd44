import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { outcome, Readiness } from './readiness.js';

export type LivenessReport = { alive: true } | { alive: false; stuck: Record<string, string> };

/** How often readiness is looked at when nobody asks. */
const WATCH_INTERVAL_MS = 5_000;
const PROBE_TIMEOUT_MS = 3_000;

/**
 * Whether the process can still heal by itself. A dependency that is down makes a service not
 * ready, and a restart would not help; but a check that keeps failing while the same dependency
 * answers a fresh connection means this process's own connections are beyond repair. After
 * `stuckLimitMs` of that, `/healthz` fails, and Kubernetes or `npm start`'s supervisor restarts it.
 */
@Injectable()
export class Liveness implements OnApplicationShutdown {
  private readonly logger = new Logger(Liveness.name);
  /** Since when each check has failed while its dependency answered afresh. */
  private readonly stuckSince = new Map<string, { at: number; detail: string }>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private stuckLimitMs = Number.POSITIVE_INFINITY;

  constructor(private readonly readiness: Readiness) {}

  start(stuckLimitMs: number): void {
    this.stuckLimitMs = stuckLimitMs;
    const watch = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.watch().catch((error: unknown) => this.logger.error(`liveness look failed: ${String(error)}`)).finally(watch), WATCH_INTERVAL_MS).unref();
    };
    watch();
  }

  /** A look under way when the app shuts down must not start another on connections already closed. */
  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One look: every failing check whose dependency answers afresh is stuck from now, unless it already was. */
  async watch(now = Date.now()): Promise<void> {
    const { checks } = await this.readiness.report();
    await Promise.all(
      Object.entries(checks).map(async ([name, result]) => {
        const { reachable, alive } = this.readiness.optionsOf(name);
        if (result === 'ok' || !reachable || alive?.()) return this.stuckSince.delete(name);
        if ((await outcome(reachable, PROBE_TIMEOUT_MS)) !== 'ok') return this.stuckSince.delete(name);
        if (!this.stuckSince.has(name)) this.logger.warn(`${name} fails (${result}) although it answers a fresh connection; restart due if it lasts ${Math.round(this.stuckLimitMs / 1000)} s`);
        this.stuckSince.set(name, { at: this.stuckSince.get(name)?.at ?? now, detail: result });
      }),
    );
  }

  report(now = Date.now()): LivenessReport {
    const stuck = [...this.stuckSince].filter(([, { at }]) => now - at >= this.stuckLimitMs);
    if (stuck.length === 0) return { alive: true };
    return { alive: false, stuck: Object.fromEntries(stuck.map(([name, { at, detail }]) => [name, `failing for ${Math.round((now - at) / 1000)} s while it answers a fresh connection: ${detail}`])) };
  }
}
