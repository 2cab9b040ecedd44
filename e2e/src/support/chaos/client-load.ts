import { randomUUID } from 'node:crypto';
import { call, isRetryable, sleep, type RequestTally } from './chaos-http.js';

/** One client of the run: its key, and the phone it delivers with (or that the real worker serves). */
export interface ChaosClient {
  clientId: number;
  apiKey: string;
  phoneId: number;
  workerToken: string;
  /** Delivered by the driver's own claim/report loop; false when the real worker process delivers. */
  deliversItself: boolean;
  /** Only the latency probe's lone creates (and its deliveries), no load of its own. */
  probe?: boolean;
}

/** One create-task as the client meant it: one Idempotency-Key, however many tries it took. */
export interface CreateRecord {
  clientId: number;
  idempotencyKey: string;
  message: string;
  /** Task ids of every 201 answer to this key (one id, repeated, when all is well). */
  createdIds: number[];
  tries: number;
  /** 'created', a final 4xx status, or 'gave_up' when retries ran out. */
  outcome: 'created' | 'gave_up' | number;
}

/** A report answered 200: the task must end in this status. */
export interface ReportRecord {
  clientId: number;
  taskId: number;
  status: 'sent' | 'failed';
}

/** An inbound message in a batch answered 201: it must be stored exactly once. */
export interface InboundRecord {
  clientId: number;
  phoneId: number;
  externalId: string;
}

/** A task handed out by pending-tasks: each (task, attempt) may be handed out once only. */
export interface ClaimRecord {
  taskId: number;
  attempt: number;
}

export interface LoadRecords {
  creates: CreateRecord[];
  claims: ClaimRecord[];
  reports: ReportRecord[];
  inbound: InboundRecord[];
  /** Claims the driver deliberately never reported, to be returned by their lease. */
  unreportedClaims: number;
}

export interface LoadOptions {
  /** Share of claims reported `failed`. */
  failShare: number;
  /** Share of claims never reported. */
  abandonShare: number;
  /** How long a careful client keeps retrying one create-task before giving up. */
  createRetryMs: number;
  /** Parallel create-task loops per client. */
  createConcurrency: number;
  /** Pause between one client's requests of a loop, to keep the load steady rather than maximal. */
  pauseMs: number;
  /** Pause after each report of a self-delivering phone (`pauseMs` when unset): slower creates must not slow delivery below the rate tasks arrive. */
  deliveryPauseMs?: number;
  /** Pollers per self-delivering phone: two compete for the same phone's tasks when replicas run. */
  deliveryLoops?: number;
  /** Share of a create loop's requests that are create-tasks of 2–`bulkSize` items (one Idempotency-Key for the request). */
  bulkShare?: number;
  bulkSize?: number;
  /** The probe client's lone create-task, one every this many ms whatever the answers take (tally kind `probe-create-task`). */
  probeEveryMs?: number;
}

type Phase = 'load' | 'drain' | 'stopped';

/**
 * The steady mix of the chaos run: every client creates tasks with Idempotency-Keys and syncs
 * inbound messages; clients that deliver themselves claim and report (a share `failed`, a share
 * never reported). Every answer that promises something is recorded for the checks.
 */
export class ClientLoad {
  readonly records: LoadRecords = { creates: [], claims: [], reports: [], inbound: [], unreportedClaims: 0 };
  private phase: Phase = 'load';
  private abandoning = true;
  private readonly running: Promise<void>[] = [];
  private readonly deliveries: Promise<void>[] = [];
  private readonly retries: Promise<void>[] = [];
  /** create-tasks requests (by their Idempotency-Key) already answered 200 once. */
  private readonly answeredBulks = new Set<string>();
  private inboundSeq = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly clients: ChaosClient[],
    private readonly tally: RequestTally,
    private readonly options: LoadOptions,
  ) {}

  start(): void {
    for (const client of this.clients) {
      if (client.probe) {
        if (this.options.probeEveryMs !== undefined) this.running.push(this.probeLoop(client, this.options.probeEveryMs));
        for (let loop = 0; loop < (this.options.deliveryLoops ?? 1); loop++) this.deliveries.push(this.deliveryLoop(client));
        continue;
      }
      for (let loop = 0; loop < this.options.createConcurrency; loop++) this.running.push(this.createLoop(client));
      if (client.deliversItself) {
        for (let loop = 0; loop < (this.options.deliveryLoops ?? 1); loop++) this.deliveries.push(this.deliveryLoop(client));
        this.running.push(this.inboundLoop(client));
      }
    }
  }

  /** From now on every claim is reported: the last abandoned ones are back by the time the load stops, rather than a whole lease after it. */
  stopAbandoning(): void {
    this.abandoning = false;
  }

  /** Stops new creates and syncs and waits for those under way (their retries included). */
  async stopCreating(): Promise<void> {
    this.phase = 'drain';
    await Promise.all(this.running);
    await Promise.all(this.retries);
  }

  /** Stops claiming; claims under way are reported first. */
  async stopDelivering(): Promise<void> {
    this.phase = 'stopped';
    await Promise.all(this.deliveries);
  }

  private async createLoop(client: ChaosClient): Promise<void> {
    while (this.phase === 'load') {
      if (Math.random() < (this.options.bulkShare ?? 0)) {
        const items = Array.from({ length: 2 + Math.floor(Math.random() * ((this.options.bulkSize ?? 2) - 1)) }, () => this.newCreate(client));
        if (!(await this.tryCreateMany(client, items))) this.retries.push(this.retryCreate(() => this.tryCreateMany(client, items)));
      } else {
        const record = this.newCreate(client);
        // A client with a queue of its own goes on with new messages while one waits for its retry.
        if (!(await this.tryCreate(client, record))) this.retries.push(this.retryCreate(() => this.tryCreate(client, record)));
      }
      await sleep(this.options.pauseMs);
    }
  }

  /**
   * A steady beat of lone creates, one every `everyMs` whether or not the ones before were
   * answered, so that a slow answer shows as latency rather than as fewer requests.
   */
  private async probeLoop(client: ChaosClient, everyMs: number): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    for (let next = Date.now(); this.phase === 'load'; next += everyMs) {
      await sleep(next - Date.now());
      const record = this.newCreate(client);
      const sent: Promise<void> = this.tryCreate(client, record, 'probe-create-task').then((done) => {
        inFlight.delete(sent);
        // Retries are timed apart: the probe's beat is its first tries.
        if (!done) this.retries.push(this.retryCreate(() => this.tryCreate(client, record, 'probe-create-task retry')));
      });
      inFlight.add(sent);
    }
    await Promise.all(inFlight);
  }

  private newCreate(client: ChaosClient): CreateRecord {
    const idempotencyKey = randomUUID();
    const record: CreateRecord = { clientId: client.clientId, idempotencyKey, message: `chaos ${idempotencyKey}`, createdIds: [], tries: 0, outcome: 'gave_up' };
    this.records.creates.push(record);
    return record;
  }

  /**
   * One try of create-tasks for `items` under the first item's Idempotency-Key (it covers the
   * whole request); each item is a record of its own, answered in place.
   */
  private async tryCreateMany(client: ChaosClient, items: CreateRecord[]): Promise<boolean> {
    for (const item of items) item.tries += 1;
    const answer = await call(this.tally, 'create-tasks', this.baseUrl, 'POST', '/smsapi/create-tasks', {
      headers: { 'x-api-key': client.apiKey, 'idempotency-key': items[0]!.idempotencyKey },
      body: { tasks: items.map((item) => ({ recipient: '+381641234567', message: item.message })) },
    });
    if (answer.status === 200 && Array.isArray(answer.body?.results)) {
      items.forEach((item, index) => {
        const result = answer.body.results[index];
        if (typeof result?.id === 'number') {
          item.createdIds.push(result.id as number);
          item.outcome = 'created';
        } else {
          // Refused in place: `unavailable` promises "not queued, nothing charged", as create-task's 503 does.
          item.outcome = result?.error === 'unavailable' ? 503 : 400;
        }
      });
      // "Retry later", as create-task's 503 says: one repeat (same key) settles those items, and its answer is final.
      const firstAnswer = !this.answeredBulks.has(items[0]!.idempotencyKey);
      this.answeredBulks.add(items[0]!.idempotencyKey);
      return !(firstAnswer && items.some((item) => item.outcome === 503));
    }
    if (isRetryable(answer)) return false;
    for (const item of items) item.outcome = answer.status;
    return true;
  }

  /** One try; false when it is worth retrying unchanged (same Idempotency-Key, same body). */
  private async tryCreate(client: ChaosClient, record: CreateRecord, kind = 'create-task'): Promise<boolean> {
    record.tries += 1;
    const answer = await call(this.tally, kind, this.baseUrl, 'POST', '/smsapi/create-task', {
      headers: { 'x-api-key': client.apiKey, 'idempotency-key': record.idempotencyKey },
      body: { recipient: '+381641234567', message: record.message },
    });
    if (answer.status === 201) {
      record.createdIds.push(answer.body.id as number);
      record.outcome = 'created';
      return true;
    }
    if (isRetryable(answer)) return false;
    record.outcome = answer.status;
    return true;
  }

  /** `again` (one more try, unchanged) with back-off until it is final or the client gives up. */
  private async retryCreate(again: () => Promise<boolean>): Promise<void> {
    const giveUpAt = Date.now() + this.options.createRetryMs;
    let delay = 200;
    while (Date.now() < giveUpAt) {
      await sleep(delay);
      delay = Math.min(delay * 2, 2_000);
      if (await again()) return;
    }
  }

  private async deliveryLoop(client: ChaosClient): Promise<void> {
    const headers = { 'x-worker-token': client.workerToken };
    while (this.phase !== 'stopped') {
      const claim = await call(this.tally, 'pending-tasks', this.baseUrl, 'GET', '/smsapi/pending-tasks?wait=1', { headers, timeoutMs: 15_000 });
      if (claim.status !== 200 || typeof claim.body?.id !== 'number') {
        if (claim.status !== 200) await sleep(300);
        continue;
      }
      this.records.claims.push({ taskId: claim.body.id as number, attempt: claim.body.attempt as number });
      const roll = Math.random();
      if (this.phase === 'load' && this.abandoning && roll < this.options.abandonShare) {
        this.records.unreportedClaims += 1;
        continue;
      }
      const status = roll < this.options.abandonShare + this.options.failShare ? 'failed' : 'sent';
      await this.report(client, claim.body.id as number, status, Date.parse(claim.body.claim_expires_at as string));
      await sleep(this.options.deliveryPauseMs ?? this.options.pauseMs);
    }
  }

  /** Retried like the reference worker: until the claim runs out; 404 and 409 are final. */
  private async report(client: ChaosClient, taskId: number, status: 'sent' | 'failed', claimExpiresAt: number): Promise<void> {
    let delay = 200;
    for (;;) {
      const answer = await call(this.tally, 'task-status', this.baseUrl, 'POST', '/smsapi/task-status', {
        headers: { 'x-worker-token': client.workerToken },
        body: status === 'failed' ? { id: taskId, status, error: 'chaos says no' } : { id: taskId, status },
      });
      if (answer.status === 200) {
        this.records.reports.push({ clientId: client.clientId, taskId, status });
        return;
      }
      if (!isRetryable(answer) || answer.status === 409 || Date.now() > claimExpiresAt + 2_000) return;
      await sleep(delay);
      delay = Math.min(delay * 2, 2_000);
    }
  }

  private async inboundLoop(client: ChaosClient): Promise<void> {
    const acknowledged: { from: string; message: string; received_at: string; external_id: string }[] = [];
    while (this.phase === 'load') {
      const fresh = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => {
        const seq = ++this.inboundSeq;
        return { from: '+381641234567', message: `reply ${seq}`, received_at: new Date().toISOString(), external_id: `chaos-${client.clientId}-${seq}` };
      });
      // A phone that syncs again sends messages already stored: they must not be stored twice.
      const repeated = acknowledged.length > 0 && Math.random() < 0.3 ? [acknowledged[Math.floor(Math.random() * acknowledged.length)]!] : [];
      const batch = [...fresh, ...repeated];
      const giveUpAt = Date.now() + this.options.createRetryMs;
      let delay = 200;
      for (;;) {
        const answer = await call(this.tally, 'inbound', this.baseUrl, 'POST', '/smsapi/inbound', { headers: { 'x-worker-token': client.workerToken }, body: { messages: batch } });
        if (answer.status === 201) {
          acknowledged.push(...fresh);
          for (const message of fresh) this.records.inbound.push({ clientId: client.clientId, phoneId: client.phoneId, externalId: message.external_id });
          break;
        }
        if (!isRetryable(answer) || Date.now() >= giveUpAt) break;
        await sleep(delay);
        delay = Math.min(delay * 2, 2_000);
      }
      await sleep(this.options.pauseMs * 4);
    }
  }
}
