import { Injectable } from '@nestjs/common';

export type ReadinessReport = { ready: boolean; checks: Record<string, string> };

export interface ReadinessCheckOptions {
  /**
   * Whether the dependency answers a connection of its own, made afresh. A check that keeps failing
   * while this succeeds means the service's own connections cannot heal (`Liveness`). Left out
   * for a check whose failure a restart cannot mend (another service being down).
   */
  reachable?: () => Promise<unknown>;
  /**
   * True while the check fails but the service's own connection is not what is broken: its pool
   * still gets answers, only slowly (load), or the broker blocks it (a memory or disk alarm). A
   * restart would not help then, so it never counts as stuck.
   */
  alive?: () => boolean;
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

  /** What `name` was registered with beyond its check: its fresh-connection probe, its evidence of life. */
  optionsOf(name: string): ReadinessCheckOptions {
    return this.checks.get(name)?.options ?? {};
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
