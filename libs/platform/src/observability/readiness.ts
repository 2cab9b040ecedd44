import { Injectable } from '@nestjs/common';

export type ReadinessReport = { ready: boolean; checks: Record<string, string> };

export interface ReadinessCheckOptions {
  /**
   * Whether the dependency answers a connection of its own, made afresh. A check that keeps failing
   * while this succeeds means the service's own connections cannot heal (`Liveness`). Left out
   * for a check whose failure a restart cannot mend (another service being down).
   */
  reachable?: () => Promise<unknown>;
}

/** What a service needs in order to work (its database, broker, Redis…), each checked on demand. */
@Injectable()
export class Readiness {
  private readonly checks = new Map<string, { check: () => Promise<unknown>; options: ReadinessCheckOptions }>();

  register(name: string, check: () => Promise<unknown>, options: ReadinessCheckOptions = {}): void {
    this.checks.set(name, { check, options });
  }

  async report(timeoutMs = 2_000): Promise<ReadinessReport> {
    const entries = await Promise.all([...this.checks].map(async ([name, { check }]) => [name, await outcome(check, timeoutMs)] as const));
    return { ready: entries.every(([, result]) => result === 'ok'), checks: Object.fromEntries(entries) };
  }

  /** The probe of a fresh connection to what `name` checks, if it has one. */
  reachableProbe(name: string): (() => Promise<unknown>) | undefined {
    return this.checks.get(name)?.options.reachable;
  }
}

export async function outcome(check: () => Promise<unknown>, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
