/** A task as the worker holds it after a claim: the wire's fields, plus when the claim lapses on our clock. */
export interface PendingTask {
  id: number;
  recipient: string;
  message: string;
  phoneId: unknown;
  clientId: unknown;
  scheduledAt: unknown;
  gatewayUrl: string | null;
  attempt: unknown;
  /**
   * `per_minute`: the pace the phone's owner set for it in smsq (SMS per minute); null when none is
   * set, or from an smsq that predates it: the worker keeps its own pace.
   */
  perMinute: number | null;
  /**
   * `jitter`: the longest random extra pause (seconds) the phone's owner set between its sends; null
   * when none is set, or from an smsq that predates it: the worker keeps its own (send-pacer.ts).
   */
  jitterS: number | null;
  /** `sim`: the SIM to send this task from (1-based), chosen by smsq; null: the worker's own (WORKER_SIM) or the phone's default. */
  sim: number | null;
  /** `parts`: the SMS parts the message costs, what the pace counts; 1 from an smsq that predates it, and for an encrypted message (smsq cannot count it). */
  parts: number;
  /**
   * `encrypted`: `message` is a sealed message (docs/guide/encryption.md) that the worker opens with the
   * client's passphrase before the phone gets it; false when absent, from an smsq that predates it.
   */
  encrypted: boolean;
  /** Epoch ms, local clock, when the claim reached the worker. */
  receivedAt: number;
  /** Epoch ms, local clock, by which the report must have landed; after it the lease returns the task. */
  claimDeadline: number;
}

/** What a `pending-tasks` body held: nothing due, a task, or something unusable. */
export type ParsedPoll =
  | { kind: 'idle' }
  | { kind: 'task'; task: PendingTask }
  /** A claim we hold but cannot deliver: it is reported failed rather than left to the lease. */
  | { kind: 'undeliverable'; id: number; claimDeadline: number; problem: string }
  | { kind: 'malformed'; problem: string };

/** If `claim_expires_at` is unusable, the server's default claim timeout is assumed. */
const DEFAULT_CLAIM_MS = 300_000;

/**
 * Reads a `pending-tasks` body (DESIGN.md §3). `{}` means nothing is due. The claim deadline is
 * moved onto the local clock through the answer's `Date` header, so a skewed clock here neither
 * abandons reports early nor retries them long after the lease returned the task.
 */
export function parsePendingTask(body: unknown, receivedAt: number, serverDate: string | null): ParsedPoll {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { kind: 'malformed', problem: 'the answer is not a JSON object' };
  const fields = body as Record<string, unknown>;
  if (fields['id'] === undefined) return { kind: 'idle' };
  const id = fields['id'];
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return { kind: 'malformed', problem: `the task id ${JSON.stringify(id)} is not a positive integer` };

  const claimDeadline = localClaimDeadline(fields['claim_expires_at'], receivedAt, serverDate);
  const { recipient, message } = fields;
  const gatewayUrl = fields['gateway_url'] ?? null;
  if (typeof recipient !== 'string' || recipient === '') return { kind: 'undeliverable', id, claimDeadline, problem: 'the task has no recipient' };
  if (typeof message !== 'string') return { kind: 'undeliverable', id, claimDeadline, problem: 'the task has no message' };
  if (gatewayUrl !== null && typeof gatewayUrl !== 'string') return { kind: 'undeliverable', id, claimDeadline, problem: 'the task gateway_url is not a string' };
  // Read as plain text, a sealed message would reach the recipient as ciphertext: anything but a clear flag is refused.
  const encrypted = fields['encrypted'] ?? false;
  if (typeof encrypted !== 'boolean') return { kind: 'undeliverable', id, claimDeadline, problem: 'the task encrypted flag is neither true nor false' };

  return {
    kind: 'task',
    task: {
      id,
      recipient,
      message,
      phoneId: fields['phone_id'],
      clientId: fields['client_id'],
      scheduledAt: fields['scheduled_at'],
      gatewayUrl,
      attempt: fields['attempt'],
      perMinute: paceOf(fields['per_minute']),
      jitterS: jitterOf(fields['jitter']),
      sim: simOf(fields['sim']),
      parts: partsOf(fields['parts']),
      encrypted,
      receivedAt,
      claimDeadline,
    },
  };
}

/**
 * Reads a batched claim's tasks (`pending-tasks?limit=N`, `task-statuses`' `tasks`): each as
 * `parsePendingTask` reads a single one; none due is an empty list.
 */
export function parsePendingTasks(tasks: unknown, receivedAt: number, serverDate: string | null): ParsedPoll[] | { kind: 'malformed'; problem: string } {
  if (!Array.isArray(tasks)) return { kind: 'malformed', problem: 'the answer has no list of tasks' };
  // An empty object in the list would read as "nothing due": it is no task we could deliver.
  return tasks.map((task) => (isEmptyObject(task) ? { kind: 'malformed' as const, problem: 'a task in the list is empty' } : parsePendingTask(task, receivedAt, serverDate)));
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** A positive whole number of SMS per minute; anything else sets no pace. */
function paceOf(perMinute: unknown): number | null {
  return typeof perMinute === 'number' && Number.isSafeInteger(perMinute) && perMinute > 0 ? perMinute : null;
}

/** The longest jitter smsq lets an owner set (MAX_JITTER_S in @smsq/contracts). */
const MAX_JITTER_S = 600;
/** The highest SIM number taken, as for WORKER_SIM. */
const MAX_SIM = 8;

/** Whole seconds from 0 to MAX_JITTER_S; anything else sets no jitter, and the worker keeps its own. */
function jitterOf(jitter: unknown): number | null {
  return typeof jitter === 'number' && Number.isSafeInteger(jitter) && jitter >= 0 && jitter <= MAX_JITTER_S ? jitter : null;
}

/** A SIM number from 1; anything else chooses none, and the worker sends from its own. */
function simOf(sim: unknown): number | null {
  return typeof sim === 'number' && Number.isSafeInteger(sim) && sim >= 1 && sim <= MAX_SIM ? sim : null;
}

/** A concatenated SMS has at most 255 parts (its header counts them in one byte). */
const MAX_PARTS = 255;

/** A whole number of parts from 1 to MAX_PARTS; anything else (absent from an older smsq) counts as one. */
function partsOf(parts: unknown): number {
  return typeof parts === 'number' && Number.isSafeInteger(parts) && parts >= 1 && parts <= MAX_PARTS ? parts : 1;
}

function localClaimDeadline(claimExpiresAt: unknown, receivedAt: number, serverDate: string | null): number {
  const expiresAt = typeof claimExpiresAt === 'string' ? Date.parse(claimExpiresAt) : Number.NaN;
  if (Number.isNaN(expiresAt)) return receivedAt + DEFAULT_CLAIM_MS;
  const serverNow = serverDate === null ? Number.NaN : Date.parse(serverDate);
  return Number.isNaN(serverNow) ? expiresAt : receivedAt + (expiresAt - serverNow);
}
