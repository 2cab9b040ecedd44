import { Injectable } from '@nestjs/common';

export type ReadinessReport = { ready: boolean; checks: Record<string, string> };

/** What a service needs in order to work (its database, broker, Redis…), each checked on demand. */
@Injectable()
export class Readiness {
  private readonly checks = new Map<string, () => Promise<unknown>>();

  register(name: string, check: () => Promise<unknown>): void {
    this.checks.set(name, check);
  }

  async report(timeoutMs = 2_000): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await outcome(check, timeoutMs)] as const),
    );
    return { ready: entries.every(([, result]) => result === 'ok'), checks: Object.fromEntries(entries) };
  }
}

async function outcome(check: () => Promise<unknown>, timeoutMs: number): Promise<string> {
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
