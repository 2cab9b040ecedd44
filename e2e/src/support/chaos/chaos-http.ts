/** One answer as a client saw it; status 0 is a network error or a request that timed out. */
export interface ChaosAnswer {
  status: number;
  body: any;
}

/** One answer's timing: when it came back and how long it took. */
export interface AnswerTiming {
  endedAt: number;
  ms: number;
  status: number;
}

/** Counts of what the run sent and what came back, by kind of request, with each answer's timing. */
export class RequestTally {
  readonly sent: Record<string, number> = {};
  readonly answers: Record<string, Record<string, number>> = {};
  readonly timings: Record<string, AnswerTiming[]> = {};
  /** Answers that were not answers (no answer, 5xx) by kind, counted by status and error code or message. */
  readonly failures: Record<string, Record<string, number>> = {};

  /** Why a request got no proper answer, for the figures. */
  countFailure(kind: string, answer: ChaosAnswer): void {
    if (answer.status !== 0 && answer.status < 500) return;
    const why = answer.status === 0 ? String(answer.body).slice(0, 80) : `${answer.status} ${typeof answer.body === 'object' ? (answer.body?.error ?? '') : String(answer.body).slice(0, 40)}`;
    const byWhy = (this.failures[kind] ??= {});
    byWhy[why] = (byWhy[why] ?? 0) + 1;
  }

  count(kind: string, status: number, startedAt?: number): void {
    if (startedAt !== undefined) {
      const endedAt = Date.now();
      (this.timings[kind] ??= []).push({ endedAt, ms: endedAt - startedAt, status });
    }
    this.sent[kind] = (this.sent[kind] ?? 0) + 1;
    const byStatus = (this.answers[kind] ??= {});
    const label = status === 0 ? 'network_error' : String(status);
    byStatus[label] = (byStatus[label] ?? 0) + 1;
  }
}

/** A request as a careful client makes it: never waits for ever, a broken connection is an answer too. */
export async function call(
  tally: RequestTally,
  kind: string,
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<ChaosAnswer> {
  let answer: ChaosAnswer;
  const startedAt = Date.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: kept as text for the report
    }
    answer = { status: response.status, body };
  } catch (error) {
    answer = { status: 0, body: error instanceof Error ? error.message : String(error) };
  }
  tally.count(kind, answer.status, startedAt);
  tally.countFailure(kind, answer);
  return answer;
}

/** The median time of the answers of `kind` with `status` that came back within [from, to), or null with fewer than `atLeast` of them. */
export function medianMs(tally: RequestTally, kind: string, status: number, from: number, to: number, atLeast = 5): number | null {
  const times = (tally.timings[kind] ?? [])
    .filter((timing) => timing.status === status && timing.endedAt >= from && timing.endedAt < to)
    .map((timing) => timing.ms)
    .sort((a, b) => a - b);
  return times.length < atLeast ? null : times[Math.floor((times.length - 1) / 2)]!;
}

/** Worth retrying unchanged: the service is down, busy, restarting, or still finishing the first try. */
export function isRetryable(answer: ChaosAnswer): boolean {
  return answer.status === 0 || answer.status === 409 || answer.status === 429 || answer.status >= 500;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
