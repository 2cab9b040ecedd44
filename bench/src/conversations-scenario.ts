import { Patterns, type ConversationListQuery, type ConversationPage, type MessagesUnreadQuery } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import type { BenchStack } from './bench-stack.js';
import { percentile } from './percentile.js';
import type { Fixture } from './scenarios.js';

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

/** The thread list's first page, as the dashboard asks for it: 30 threads, then their unread counts. */
const PAGE = 30;

export interface ConversationsResult {
  tasks: number;
  numbers: number;
  replies: number;
  requests: number;
  /** The dashboard's two messages for the first page (dispatch's threads, inbox's unread counts), in ms. */
  firstPage: { p50Ms: number; p99Ms: number };
  /** The same two statements straight on the database, in ms. */
  sql: { p50Ms: number; p99Ms: number };
  /** firstPage p99 / sql p99. */
  overSqlRatio: number;
}

/**
 * Scenario 5 (issue 21): a client with `tasks` tasks to `numbers` numbers and `replies` replies
 * asks for its first page of conversations. The history is written straight into the tables, as
 * the create and reply paths leave it (a thread per number, its last message), because 100,000
 * tasks through the API would take longer than the scenario.
 */
export async function conversationsScenario(stack: BenchStack, fixture: Fixture, sizes: { tasks: number; numbers: number; replies: number; requests: number }): Promise<ConversationsResult> {
  const clientId = fixture.clientIds[0]!;
  const phoneId = fixture.gatewayIds[0]!;
  log(`conversations: a client with ${sizes.tasks} tasks to ${sizes.numbers} numbers and ${sizes.replies} replies`);
  await stack.sql.query(
    `INSERT INTO "dispatch"."tasks" (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local, attempts, sent_at, created_at)
     SELECT gen_random_uuid(), $1, $2, '+38165' || (1000000 + n % $4)::text, 'bench thread ' || n, 'sent',
            t, '2026-01-01 00:00:00', 1, t, t
       FROM generate_series(1, $3::int) n, LATERAL (SELECT now() - interval '30 days' + n * (interval '30 days' / $3::int)) AS at(t)`,
    [clientId, phoneId, sizes.tasks, sizes.numbers],
  );
  await stack.sql.query(
    `INSERT INTO "dispatch"."conversations" (client_id, number, last_at, last_text, last_direction)
     SELECT DISTINCT ON (recipient) client_id, recipient, created_at, left(message, 160), 'out'
       FROM "dispatch"."tasks" WHERE client_id = $1 ORDER BY recipient, created_at DESC
     ON CONFLICT DO NOTHING`,
    [clientId],
  );
  await stack.sql.query(
    `INSERT INTO "inbox"."messages" (client_id, phone_id, sender, body, received_at, dedup_key)
     SELECT $1, $2, '+38165' || (1000000 + (n * 7) % $4)::text, 'bench reply ' || n, now() - (n * interval '1 second'), 'bench:' || n
       FROM generate_series(1, $3::int) n`,
    [clientId, phoneId, sizes.replies, sizes.numbers],
  );
  await stack.sql.query(
    `UPDATE "dispatch"."conversations" c SET last_at = r.at, last_text = r.body, last_direction = 'in', reply_phone_id = $2, reply_at = r.at
       FROM (SELECT DISTINCT ON (sender) sender, received_at AS at, body FROM "inbox"."messages" WHERE client_id = $1 ORDER BY sender, received_at DESC) r
      WHERE c.client_id = $1 AND c.number = r.sender AND c.last_at < r.at`,
    [clientId, phoneId],
  );
  for (const table of ['"dispatch"."tasks"', '"dispatch"."conversations"', '"inbox"."messages"']) await stack.sql.query(`VACUUM (ANALYZE) ${table}`);

  const { dispatch, inbox } = stack.conversationClients();
  const viaServices = await timed(sizes.requests, () => firstPage(dispatch, inbox, clientId));
  const viaSql = await timed(sizes.requests, async () => {
    const { rows } = await stack.sql.query<{ number: string; read_at: Date | null }>(
      `SELECT number, read_at FROM "dispatch"."conversations" WHERE client_id = $1 ORDER BY last_at DESC, number DESC LIMIT ${PAGE + 1}`,
      [clientId],
    );
    await stack.sql.query(
      `SELECT m.sender, count(*)::int FROM unnest($2::text[], $3::timestamptz[]) AS t(sender, since)
         JOIN "inbox"."messages" m ON m.client_id = $1 AND m.sender = t.sender AND (t.since IS NULL OR m.received_at > t.since) GROUP BY m.sender`,
      [clientId, rows.map((row) => row.number), rows.map((row) => row.read_at)],
    );
  });
  const result = { ...sizes, firstPage: viaServices, sql: viaSql, overSqlRatio: round2(viaServices.p99Ms / viaSql.p99Ms) };
  log(`conversations: first page p50 ${viaServices.p50Ms} ms, p99 ${viaServices.p99Ms} ms; the SQL alone p50 ${viaSql.p50Ms} ms, p99 ${viaSql.p99Ms} ms: ${result.overSqlRatio}`);
  return result;
}

async function firstPage(dispatch: ServiceClient, inbox: ServiceClient, clientId: number): Promise<void> {
  const query: ConversationListQuery = { clientId, limit: PAGE };
  const page = await dispatch.send<ConversationPage>(Patterns.dispatch.conversationList, query);
  const unread: MessagesUnreadQuery = { clientId, threads: page.items.filter((thread) => thread.replyAt !== null).map((thread) => ({ from: thread.number, since: thread.readAt })) };
  await inbox.send(Patterns.inbox.messagesUnread, unread);
}

async function timed(requests: number, once: () => Promise<void>): Promise<{ p50Ms: number; p99Ms: number }> {
  for (let warmUp = 0; warmUp < 10; warmUp++) await once();
  const times: number[] = [];
  for (let n = 0; n < requests; n++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return { p50Ms: round2(percentile(times, 50)), p99Ms: round2(percentile(times, 99)) };
}
