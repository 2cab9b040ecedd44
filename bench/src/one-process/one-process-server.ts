// The bench's second baseline (issue 11): create-task in one Node process, `node:http` + `pg`, API
// key hashes in memory, the gateway's body rules and one transaction per request; and a worker's
// claim and report (scenario 3), worker token hashes in memory, one statement each. Never shipped;
// started by the bench as a child process (one-process-implementation.ts), which it tells its
// port over IPC once it listens.
//
// It repeats the gateway's validation (create-task-rules.ts) and the services' SQL
// (create-task-store.ts, delivery-store.ts) on purpose instead of importing them: a baseline built from smsq's own
// code would inherit smsq's mistakes and slowness, and a change to smsq would move the yardstick
// it is measured by. Keep it independent; when smsq's rules change, change these to match by hand.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { Refusal, parseCreateTask } from './create-task-rules.js';
import { CreateTaskStore } from './create-task-store.js';
import { DeliveryStore } from './delivery-store.js';

const BODY_LIMIT_BYTES = 64 * 1024;
/** As many connections as the pgbench baseline uses. */
const POOL_SIZE = 16;

interface KeyOwner {
  clientId: number;
  timeZone: string;
}

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** The SHA-256 of every live API key of the given clients, as the gateway keeps them. */
async function loadKeyOwners(pool: pg.Pool, clientIds: number[]): Promise<Map<string, KeyOwner>> {
  const { rows } = await pool.query<{ hash: string; client_id: number; timezone: string }>(
    `SELECT k.hash, k.client_id, c.timezone FROM "gateway"."api_keys" k JOIN "gateway"."clients" c ON c.id = k.client_id
      WHERE k.client_id = ANY($1::int[]) AND k.revoked_at IS NULL`,
    [clientIds],
  );
  return new Map(rows.map((row) => [row.hash, { clientId: row.client_id, timeZone: row.timezone }]));
}

/** The SHA-256 of every live worker token not bound to a phone, with its id, as the gateway keeps them. */
async function loadWorkerTokens(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ hash: string; id: number }>(`SELECT hash, id FROM "gateway"."worker_tokens" WHERE phone_id IS NULL AND revoked_at IS NULL`);
  return new Map(rows.map((row) => [row.hash, row.id]));
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  response.end(payload);
}

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) reject(new Refusal(413, 'payload_too_large', `the body is over ${BODY_LIMIT_BYTES} bytes`));
      else chunks.push(chunk);
    });
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Refusal(400, 'invalid_json', 'the body is not valid JSON'));
      }
    });
    request.on('error', reject);
  });
}

const pool = new pg.Pool({ connectionString: setting('DATABASE_URL'), max: POOL_SIZE, application_name: 'smsq-bench-one-process' });
const owners = await loadKeyOwners(pool, setting('ONE_PROCESS_CLIENT_IDS').split(',').map(Number));
const workerTokens = await loadWorkerTokens(pool);
const store = new CreateTaskStore(pool);
const deliveries = new DeliveryStore(pool);

async function createTask(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const key = request.headers['x-api-key'];
  const owner = typeof key === 'string' ? owners.get(sha256(key)) : undefined;
  if (!owner) throw new Refusal(401, 'unauthorized', 'a valid API key is required in the X-API-Key header');
  const task = parseCreateTask(await readJson(request), owner.timeZone, new Date());
  const stored = await store.create(owner.clientId, task);
  answer(response, 201, {
    ok: true,
    id: stored.id,
    status: 'pending',
    phone_id: stored.phoneId,
    client_id: owner.clientId,
    scheduled_at: task.scheduledLocal,
    credits_remaining: stored.creditsRemaining,
  });
}

function workerTokenOf(request: IncomingMessage): number {
  const token = request.headers['x-worker-token'];
  const tokenId = typeof token === 'string' ? workerTokens.get(sha256(token)) : undefined;
  if (tokenId === undefined) throw new Refusal(401, 'unauthorized', 'a valid worker token is required in the X-Worker-Token header');
  return tokenId;
}

/** pending-tasks without waiting: the oldest due task, or `{}`. */
async function claimTask(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const task = await deliveries.claim(workerTokenOf(request));
  answer(response, 200, task ?? {});
}

/** task-status for `sent`, the only outcome the bench's workers report. */
async function reportTask(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const tokenId = workerTokenOf(request);
  const report = (await readJson(request)) as { id?: unknown; status?: unknown };
  if (typeof report.id !== 'number' || !Number.isSafeInteger(report.id) || report.status !== 'sent') {
    throw new Refusal(400, 'invalid_request', 'id must be a task id and status "sent"');
  }
  if (!(await deliveries.reportSent(tokenId, report.id))) throw new Refusal(404, 'not_found', `task ${report.id} is not held by this token`);
  answer(response, 200, { ok: true, id: report.id, status: 'sent' });
}

function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = request.url?.split('?')[0];
  if (request.method === 'POST' && path === '/smsapi/create-task') return createTask(request, response);
  if (request.method === 'GET' && path === '/smsapi/pending-tasks') return claimTask(request, response);
  if (request.method === 'POST' && path === '/smsapi/task-status') return reportTask(request, response);
  return Promise.reject(new Refusal(404, 'not_found', `${request.method} ${request.url} is not here`));
}

const server = createServer((request, response) => {
  const handled = route(request, response);
  handled.catch((error: unknown) => {
    if (error instanceof Refusal) return answer(response, error.status, { error: error.code, detail: error.detail });
    process.stderr.write(`${request.method} ${request.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    answer(response, 500, { error: 'internal_error', detail: 'the request failed' });
  });
});

process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void pool.end().finally(() => process.exit(0)));
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0, keys: owners.size });
});
