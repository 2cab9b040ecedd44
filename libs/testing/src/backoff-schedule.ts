/**
 * What a back-off of `baseMs` doubling up to `maxMs`, each wait up to `jitter` shorter, allows: the
 * shortest wait before each retry, and the most attempts that fit in a stretch of time. Specs check
 * a retry loop against these instead of counting attempts in a fixed second, which a slow machine
 * fills with fewer rounds.
 */
export class BackoffSchedule {
  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
    private readonly jitter = 0.2,
  ) {}

  /** The shortest wait allowed before retry number `retry` (0 for the wait after the first attempt). */
  shortestWait(retry: number): number {
    return (1 - this.jitter) * Math.min(this.baseMs * 2 ** retry, this.maxMs);
  }

  /** The most attempts, the first included, that fit in `elapsedMs` since the first. */
  mostAttemptsWithin(elapsedMs: number): number {
    let attempts = 1;
    for (let waited = this.shortestWait(0); waited <= elapsedMs; waited += this.shortestWait(attempts - 1)) attempts++;
    return attempts;
  }

  /** The waits between `attempts` (times in ms) that were shorter than the schedule allows; empty when it held. */
  tooShortWaits(attempts: number[]): { retry: number; waitedMs: number; shortestMs: number }[] {
    return attempts
      .slice(1)
      .map((at, retry) => ({ retry, waitedMs: at - attempts[retry]!, shortestMs: this.shortestWait(retry) }))
      .filter(({ waitedMs, shortestMs }) => waitedMs < shortestMs);
  }
}
