/**
 * The simulator's dice. Real runs roll `Math.random`; tests pass a fixed source so every answer
 * is known in advance.
 */
export class Chance {
  constructor(private readonly random: () => number = Math.random) {}

  /** True with probability `rate` (never at 0, always at 1). */
  happens(rate: number): boolean {
    return rate > 0 && this.random() < rate;
  }
}
