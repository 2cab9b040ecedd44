export interface DayCounts {
  day: string;
  sent: number;
  failed: number;
  pending: number;
}

export interface Scale {
  /** The top of the axis, ≥ the largest value, a "nice" multiple of step. */
  max: number;
  step: number;
  ticks: number[];
}

/**
 * A y axis for counts: whole-number steps of 1, 2 or 5 × 10ⁿ, about `tickCount` of them, from 0 up
 * to the first step at or above `maxValue`. An all-zero chart still gets an axis (0…tickCount).
 */
export function niceScale(maxValue: number, tickCount = 4): Scale {
  const count = Math.max(1, Math.floor(tickCount));
  if (!Number.isFinite(maxValue) || maxValue <= 0) {
    return { max: count, step: 1, ticks: Array.from({ length: count + 1 }, (_, i) => i) };
  }
  const rough = maxValue / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const residual = rough / magnitude;
  const nice = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 5 ? 5 : 10;
  const step = Math.max(1, Math.round(nice * magnitude));
  const max = Math.ceil(maxValue / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= max; value += step) ticks.push(value);
  return { max, step, ticks };
}

function parseDay(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Exactly `count` consecutive days, oldest first, ending at the newest day given (or `endDay`, or
 * today in UTC when none is given); days missing from the input count zero. Extra days are dropped.
 */
export function fillDays(days: DayCounts[], count = 30, endDay?: string): DayCounts[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const known = days.map((d) => parseDay(d.day)).filter((ms): ms is number => ms !== null);
  const end = (endDay ? parseDay(endDay) : null) ?? (known.length > 0 ? Math.max(...known) : parseDay(dayString(Date.now()))!);
  const result: DayCounts[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const day = dayString(end - i * 86_400_000);
    const found = byDay.get(day);
    result.push({ day, sent: found?.sent ?? 0, failed: found?.failed ?? 0, pending: found?.pending ?? 0 });
  }
  return result;
}

export function dayTotal(d: DayCounts): number {
  return d.sent + d.failed + d.pending;
}

export function sumDays(days: DayCounts[]): { sent: number; failed: number; pending: number; total: number } {
  const sums = days.reduce(
    (acc, d) => ({ sent: acc.sent + d.sent, failed: acc.failed + d.failed, pending: acc.pending + d.pending }),
    { sent: 0, failed: 0, pending: 0 },
  );
  return { ...sums, total: sums.sent + sums.failed + sums.pending };
}
