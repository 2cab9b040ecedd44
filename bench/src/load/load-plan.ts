/** One HTTP request the load generator sends; `body` is sent as JSON. */
export interface PlannedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * What one load run does. `closed`: `connections` loops each send the next request as soon as the
 * last one answered (full speed). `open`: requests start at a fixed `ratePerS` whatever the answers
 * do, on at most `connections` sockets, and latency counts from the planned start so a stall is not
 * hidden (coordinated omission).
 */
export type LoadPlan =
  /**
   * `itemsPerRequest`: each request is one `create-tasks` of that many items instead of one `create-task`.
   * `totalItems`: stop once that many items were sent (or at `durationMs`, whichever comes first).
   * `recipients`: draw the recipients from that many numbers instead of a new one each time.
   */
  | {
      kind: 'create-tasks';
      mode: 'closed';
      baseUrl: string;
      connections: number;
      durationMs: number;
      apiKeys: string[];
      itemsPerRequest?: number;
      totalItems?: number;
      recipients?: number;
    }
  | { kind: 'create-tasks'; mode: 'open'; baseUrl: string; connections: number; durationMs: number; apiKeys: string[]; ratePerS: number }
  /** One request at a time on one connection, `pauseMs` apart: each create-task finds the services at rest. */
  | { kind: 'create-tasks'; mode: 'sequential'; baseUrl: string; requests: number; pauseMs: number; apiKeys: string[]; recipients?: number }
  /**
   * submit_sm over one SMPP transmitter bind (issue 42), each carrying create-task's body
   * (`createTaskBody`). `closed`: `total` submits with `window` of them outstanding at all times;
   * `sequential`: one at a time, `pauseMs` apart. The bind is made before the clock starts.
   */
  | { kind: 'submit-sm'; mode: 'closed'; smpp: SmppBindPlan; window: number; total: number; recipients?: number }
  | { kind: 'submit-sm'; mode: 'sequential'; smpp: SmppBindPlan; requests: number; pauseMs: number; recipients?: number }
  | {
      kind: 'deliver';
      baseUrl: string;
      workers: number;
      workerTokens: string[];
      expectedTasks: number;
      timeoutMs: number;
      /**
       * How a worker claims. `next` (the default): one task per claim, the report asking for the next
       * (`"next": true`). `each`: a claim request for every task and a report without `next`, so every
       * claim's latency is measured. `batch`: claims of up to `batchSize` (`?limit=`) reported together
       * through `task-statuses`, which asks for up to `batchSize` more (`"next"`).
       */
      claim?: 'next' | 'each' | 'batch';
      batchSize?: number;
    };

/** Where and as whom a submit-sm run binds; a submit not answered within `timeoutMs` counts as an error (`timeout`). */
export interface SmppBindPlan {
  host: string;
  port: number;
  systemId: string;
  password: string;
  timeoutMs: number;
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Status code (or `network`) of the failed requests and how many. */
  errorsByStatus: Record<string, number>;
  elapsedMs: number;
  perSecond: number;
  latency: LatencySummary;
  /** Deliver only: tasks claimed and reported sent, and ids claimed more than once. */
  delivered?: number;
  doubleClaims?: number;
  /** Deliver only: latency of the claim request alone. */
  claimLatency?: LatencySummary;
  /** `create-tasks` only: items answered with a task, and those per second. */
  items?: number;
  itemsPerSecond?: number;
  /** Batched deliver only: why the server was found not to offer batched claims and reports (the run stopped there). */
  unsupported?: string;
}

/**
 * A create-task body; recipients vary so the work is not one cached answer repeated. With
 * `recipients`, the number is one of that many, scattered by the sequence (the same sequence
 * always gives the same number), as a client texting the same customers again and again would.
 */
export function createTaskBody(sequence: number, recipients?: number): { recipient: string; message: string } {
  const number = recipients === undefined ? sequence % 8_999_999 : (Math.imul(sequence, 2_654_435_761) >>> 0) % recipients;
  return { recipient: `+38164${String(1_000_000 + number).padStart(7, '0')}`, message: `bench message ${sequence}` };
}

/** A create-tasks body of `count` create-task bodies, numbered on from `sequence`. */
export function createTasksBody(sequence: number, count: number, recipients?: number): { tasks: Array<{ recipient: string; message: string }> } {
  return { tasks: Array.from({ length: count }, (_, n) => createTaskBody(sequence + n, recipients)) };
}
