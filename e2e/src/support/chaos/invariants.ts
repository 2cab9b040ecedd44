import pg from 'pg';
import type { LoadRecords } from './client-load.js';

export interface Violation {
  invariant: string;
  clientId: number | null;
  detail: string;
}

interface TaskRow {
  id: number;
  task_key: string;
  client_id: number;
  phone_id: number;
  message: string;
  status: 'pending' | 'claimed' | 'sent' | 'failed';
  claim_expires_at: Date | null;
}

/** What the phones of the real workers' client sent: SMS per smsq task id, by phone id, as each stand-in counted them. */
export interface PhoneSends {
  clientId: number;
  byPhone: Map<number, Record<string, number>>;
}

/** The real workers' phones at the end: SMS each sent, and the tasks that moved off the phone they were first routed to. */
export interface PhoneFigures {
  smsByPhone: Record<string, number>;
  movedTasks: number;
}

/**
 * The checks of the run, per client, from what the clients were answered and what the services'
 * own databases hold (read directly: schemas gateway, billing, dispatch, inbox).
 */
export async function findViolations(databaseUrl: string, records: LoadRecords, clientIds: number[], leaseSlackMs: number, phoneSends?: PhoneSends): Promise<Violation[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const violations: Violation[] = [];
    const add = (invariant: string, clientId: number | null, detail: string) => violations.push({ invariant, clientId, detail });
    const tasks = await taskRowsOf(db, clientIds);
    const taskById = new Map(tasks.map((task) => [task.id, task]));
    const tasksByMessage = new Map<string, TaskRow[]>();
    for (const task of tasks) tasksByMessage.set(task.message, [...(tasksByMessage.get(task.message) ?? []), task]);
    const ledger = await ledgerOf(db, clientIds);
    const ledgerCount = ledger.count;

    // 1. Every task answered 201 exists exactly once.
    const answered = new Set<number>();
    for (const create of records.creates) {
      const ids = new Set(create.createdIds);
      if (ids.size > 1) add('answered-201-exists-once', create.clientId, `Idempotency-Key ${create.idempotencyKey} was answered 201 with different tasks: ${[...ids].join(', ')}`);
      for (const id of ids) {
        answered.add(id);
        const task = taskById.get(id);
        if (!task) add('answered-201-exists-once', create.clientId, `task ${id} (key ${create.idempotencyKey}) was answered 201 but does not exist`);
        else if (task.client_id !== create.clientId || task.message !== create.message) add('answered-201-exists-once', create.clientId, `task ${id} answered for key ${create.idempotencyKey} holds another client's or request's data`);
      }
      // A copy nobody was answered 201 for, failed and refunded, is an abandoned create: not a second task.
      const stored = (tasksByMessage.get(create.message) ?? []).filter((task) => ids.has(task.id) || !(task.status === 'failed' && ledgerCount(task.task_key, 'refund') === 1));
      if (stored.length > 1) add('answered-201-exists-once', create.clientId, `the request with Idempotency-Key ${create.idempotencyKey} (${create.tries} tries, outcome ${create.outcome}) is stored ${stored.length} times: tasks ${stored.map((task) => `${task.id} ${task.status}`).join(', ')}`);
    }

    // 2. No task exists that was not answered 201, unless its debit was given back.
    for (const task of tasks) {
      if (answered.has(task.id)) continue;
      if (task.status === 'failed' && ledgerCount(task.task_key, 'refund') === 1) continue;
      const create = records.creates.find((record) => record.message === task.message);
      add('no-unanswered-task', task.client_id, `task ${task.id} (${task.status}, key ${task.task_key}) exists and is charged but no client was answered 201 for it (request: ${create ? `${create.tries} tries, outcome ${create.outcome}` : 'unknown'})`);
    }

    violations.push(...(await ledgerViolations(db, clientIds, { tasks, ledger })));

    // 5. Never the same claim twice: two pollers (or two dispatch replicas) never both hold a task's attempt.
    const seen = new Set<string>();
    for (const claim of records.claims) {
      const key = `${claim.taskId}#${claim.attempt}`;
      if (seen.has(key)) add('claimed-once', null, `task ${claim.taskId} was handed out twice as attempt ${claim.attempt}`);
      seen.add(key);
    }

    // 6. No task left claimed past its lease.
    const now = Date.now();
    for (const task of tasks) {
      if (task.status === 'claimed' && task.claim_expires_at && task.claim_expires_at.getTime() < now - leaseSlackMs) add('no-expired-claim', task.client_id, `task ${task.id} is still claimed, its lease ran out at ${task.claim_expires_at.toISOString()}`);
    }

    // A report answered 200 is what the task ends as.
    for (const report of records.reports) {
      const task = taskById.get(report.taskId);
      if (task?.status !== report.status) add('report-kept', report.clientId, `task ${report.taskId} was reported ${report.status} (200) but is ${task?.status ?? 'missing'}`);
    }

    // 7. Every inbound message acknowledged with 201 is stored once.
    const stored = (await db.query<{ phone_id: number; external_id: string; client_id: number | null; count: string }>(
      `SELECT phone_id, external_id, client_id, count(*) FROM inbox.messages WHERE external_id LIKE 'chaos-%' GROUP BY phone_id, external_id, client_id`,
    )).rows;
    const storedCount = new Map<string, number>();
    for (const row of stored) storedCount.set(`${row.phone_id}/${row.external_id}`, (storedCount.get(`${row.phone_id}/${row.external_id}`) ?? 0) + Number(row.count));
    for (const message of records.inbound) {
      const count = storedCount.get(`${message.phoneId}/${message.externalId}`) ?? 0;
      if (count !== 1) add('inbound-stored-once', message.clientId, `inbound ${message.externalId} from phone ${message.phoneId} was acknowledged 201 and is stored ${count} times`);
    }
    for (const row of stored) {
      const owner = records.inbound.find((message) => message.phoneId === row.phone_id && message.externalId === row.external_id);
      if (owner && row.client_id !== owner.clientId) add('inbound-stored-once', owner.clientId, `inbound ${row.external_id} is stored for client ${row.client_id}`);
    }
    if (phoneSends) violations.push(...sentOnceViolations(tasks, phoneSends));
    return violations;
  } finally {
    await db.end();
  }
}

/**
 * 3 and 4, the money of each client: the ledger invariant of DESIGN.md §4 (opening + grants +
 * refills − debits + refunds = balance, no bucket negative), one debit per task and at most one
 * refund, no charge still held, no debit without its task unless refunded, and every failed task
 * refunded exactly once and nothing else. Holds once the system has settled, whatever died or was
 * restored (the backup spec checks it on a database restored from a dump taken under load).
 */
export async function ledgerViolations(db: pg.Client, clientIds: number[], read?: { tasks: TaskRow[]; ledger: TaskLedger }): Promise<Violation[]> {
  const violations: Violation[] = [];
  const add = (invariant: string, clientId: number | null, detail: string) => violations.push({ invariant, clientId, detail });
  const tasks = read?.tasks ?? (await taskRowsOf(db, clientIds));
  const { entries, count: ledgerCount } = read?.ledger ?? (await ledgerOf(db, clientIds));

  // 3. The ledger invariant of DESIGN.md §4, and one debit per task.
  const accounts = (
    await db.query<{ client_id: number; balance: number; ledger_sum: string | null; daily_remaining: number; bonus_remaining: number }>(
      `SELECT a.client_id, a.daily_remaining + a.bonus_remaining AS balance, a.daily_remaining, a.bonus_remaining,
              (SELECT sum(amount) FROM billing.ledger_entries l WHERE l.client_id = a.client_id) AS ledger_sum
       FROM billing.accounts a WHERE a.client_id = ANY($1)`,
      [clientIds],
    )
  ).rows;
  for (const clientId of clientIds) {
    const account = accounts.find((row) => row.client_id === clientId);
    if (!account) {
      add('ledger', clientId, 'no billing account');
      continue;
    }
    if (Number(account.ledger_sum ?? 0) !== account.balance) add('ledger', clientId, `opening + grants + refills − debits + refunds = ${account.ledger_sum} but the balance is ${account.balance}`);
    if (account.daily_remaining < 0 || account.bonus_remaining < 0) add('ledger', clientId, `negative bucket: daily ${account.daily_remaining}, bonus ${account.bonus_remaining}`);
  }
  for (const entry of entries) if (Number(entry.count) > 1) add('ledger', null, `task key ${entry.task_key} has ${entry.count} ${entry.kind} entries`);
  for (const task of tasks) if (ledgerCount(task.task_key, 'debit') !== 1) add('ledger', task.client_id, `task ${task.id} has ${ledgerCount(task.task_key, 'debit')} debits`);
  const held = (await db.query<{ task_key: string; client_id: number }>(`SELECT task_key::text, client_id FROM billing.task_charges WHERE state = 'held' AND client_id = ANY($1)`, [clientIds])).rows;
  for (const charge of held) add('ledger', charge.client_id, `charge ${charge.task_key} is still held after the run settled`);
  const taskKeys = new Set(tasks.map((task) => task.task_key));
  const debitedKeys = entries.filter((entry) => entry.kind === 'debit').map((entry) => entry.task_key);
  for (const key of debitedKeys) if (!taskKeys.has(key) && ledgerCount(key, 'refund') !== 1) add('ledger', null, `debit for ${key} has no task and was not refunded`);

  // 4. Every failed task refunded exactly once; nothing else refunded.
  for (const task of tasks) {
    const refunds = ledgerCount(task.task_key, 'refund');
    if (task.status === 'failed' && refunds !== 1) add('failed-refunded-once', task.client_id, `failed task ${task.id} has ${refunds} refunds`);
    if (task.status !== 'failed' && refunds !== 0) add('failed-refunded-once', task.client_id, `${task.status} task ${task.id} has ${refunds} refunds`);
  }
  return violations;
}

/**
 * 8. Where the real workers deliver, by the phones' own count (issue 18): every sent task went out
 * exactly once, from the phone it ended on (none lost, none sent twice, whatever workers died and
 * phones hung); a failed task never went out; no phone sent an SMS for a task the client does not have.
 */
function sentOnceViolations(tasks: TaskRow[], sends: PhoneSends): Violation[] {
  const violations: Violation[] = [];
  const add = (detail: string) => violations.push({ invariant: 'sent-once', clientId: sends.clientId, detail });
  const sendsOf = (taskId: number) => [...sends.byPhone].map(([phoneId, counts]) => ({ phoneId, count: counts[String(taskId)] ?? 0 })).filter((sent) => sent.count > 0);
  const describe = (sent: { phoneId: number; count: number }[]) => (sent.length === 0 ? 'no SMS' : sent.map(({ phoneId, count }) => `${count} SMS from phone ${phoneId}`).join(' and '));
  const own = tasks.filter((task) => task.client_id === sends.clientId);
  for (const task of own) {
    const sent = sendsOf(task.id);
    const total = sent.reduce((sum, { count }) => sum + count, 0);
    if (task.status === 'sent' && (total !== 1 || sent[0]!.phoneId !== task.phone_id)) add(`task ${task.id} is sent on phone ${task.phone_id}; the phones sent ${describe(sent)}`);
    if (task.status === 'failed' && total > 0) add(`task ${task.id} failed (refunded) on phone ${task.phone_id}; the phones sent ${describe(sent)}`);
  }
  const ownIds = new Set(own.map((task) => String(task.id)));
  for (const [phoneId, counts] of sends.byPhone) {
    for (const taskId of Object.keys(counts)) if (!ownIds.has(taskId)) add(`phone ${phoneId} sent ${counts[taskId]} SMS for task ${taskId}, which the client does not have`);
  }
  return violations;
}

/** The real workers' phones, for the figures. */
export async function phoneFigures(databaseUrl: string, sends: PhoneSends): Promise<PhoneFigures> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const moved = await db.query<{ count: string }>(`SELECT count(*) FROM dispatch.tasks WHERE client_id = $1 AND first_phone_id IS NOT NULL AND first_phone_id <> phone_id`, [sends.clientId]);
    const smsByPhone = Object.fromEntries([...sends.byPhone].map(([phoneId, counts]) => [String(phoneId), Object.values(counts).reduce((sum, count) => sum + count, 0)]));
    return { smsByPhone, movedTasks: Number(moved.rows[0]?.count ?? 0) };
  } finally {
    await db.end();
  }
}

/** What must be quiet before the checks mean anything: settlement done, relays caught up, leases returned. */
export async function unsettledWork(databaseUrl: string, clientIds: number[]): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const one = async (sql: string, params: unknown[] = []) => Number((await db.query<{ count: string }>(sql, params)).rows[0]?.count ?? 0);
    const waiting = {
      'held charges': await one(`SELECT count(*) FROM billing.task_charges WHERE state = 'held' AND client_id = ANY($1)`, [clientIds]),
      'unpublished outbox messages': await one(`SELECT count(*) FROM dispatch.outbox_messages WHERE published_at IS NULL`),
      'abandoned creates': await one(`SELECT count(*) FROM gateway.abandoned_creates`),
      'claimed tasks': await one(`SELECT count(*) FROM dispatch.tasks WHERE status = 'claimed' AND client_id = ANY($1)`, [clientIds]),
      'pending tasks': await one(`SELECT count(*) FROM dispatch.tasks WHERE status = 'pending' AND client_id = ANY($1)`, [clientIds]),
    };
    return Object.entries(waiting)
      .filter(([, count]) => count > 0)
      .map(([what, count]) => `${count} ${what}`);
  } finally {
    await db.end();
  }
}

/** Tasks by status, for the figures. */
export async function taskFigures(databaseUrl: string, clientIds: number[]): Promise<Record<string, number>> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const rows = (await db.query<{ status: string; count: string }>(`SELECT status::text, count(*) FROM dispatch.tasks WHERE client_id = ANY($1) GROUP BY status`, [clientIds])).rows;
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  } finally {
    await db.end();
  }
}

function taskRowsOf(db: pg.Client, clientIds: number[]): Promise<TaskRow[]> {
  return db
    .query<TaskRow>(`SELECT id, task_key, client_id, phone_id, message, status::text AS status, claim_expires_at FROM dispatch.tasks WHERE client_id = ANY($1)`, [clientIds])
    .then((result) => result.rows);
}

/** The ledger entries of the clients' tasks, counted by task key and kind. */
interface TaskLedger {
  entries: Array<{ task_key: string; kind: string; count: string }>;
  count(taskKey: string, kind: 'debit' | 'refund'): number;
}

async function ledgerOf(db: pg.Client, clientIds: number[]): Promise<TaskLedger> {
  const { rows } = await db.query<{ task_key: string; kind: string; count: string }>(
    `SELECT task_key::text, kind::text, count(*) FROM billing.ledger_entries WHERE client_id = ANY($1) AND task_key IS NOT NULL GROUP BY task_key, kind`,
    [clientIds],
  );
  const counts = new Map(rows.map((row) => [`${row.task_key}/${row.kind}`, Number(row.count)]));
  return { entries: rows, count: (taskKey, kind) => counts.get(`${taskKey}/${kind}`) ?? 0 };
}
