import { domainErrorFrom, Patterns, type PhoneDetails } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { eventually } from '@smsq/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardBrowser } from './support/secret-scan.js';
import { Stack, type HttpAnswer } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

/**
 * Issue 5: with client B's credentials (or B's client id on the broker), client A's task, phone,
 * key, worker token, reply or account answers 404 / not_found: never 403, never the data, never a
 * change. The tables below name every route the running apps registered and every message pattern
 * of the contracts; a new one without an isolation case (or a reason it takes no owned id) fails.
 */

interface Tenant {
  clientId: number;
  apiKey: string;
  keyId: number;
  phoneId: number;
  deviceId: string;
  workerToken: string;
  tokenId: number;
  failedTaskId: number;
  claimedTaskId: number;
  pendingTaskId: number;
  replyId: number;
  webhookId: number;
  templateId: number;
  smppCredentialId: number;
  /** On this tenant's opt-out list only. */
  optOutNumber: string;
  /** A number only this tenant has a conversation with. */
  threadNumber: string;
  dashboard: DashboardBrowser;
}

/** What a broker request answered: `ok` and the answer, or the contract's error code and body. */
interface Outcome {
  status: string;
  body: unknown;
}

interface IsolationCase {
  /** What the intruder B does to A's objects; must be refused as not found (or, for lists and ignored fields, must not show or touch A's). */
  intrude(): Promise<void>;
  /** The same action on B's own object succeeds, so the refusal above is about ownership, not a broken request. */
  own?(): Promise<void>;
}

const SMS = { recipient: '+381641234567', message: 'isolation test' };
const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const A_IDEMPOTENCY_KEY = 'used-by-a-first';
/** Each tenant's sticky days, set at the start: whose sending rules an answer shows. */
const STICKY_DAYS = { a: 7, b: 9 } as const;

async function rpc(client: ServiceClient, pattern: string, payload: object): Promise<Outcome> {
  try {
    return { status: 'ok', body: await client.send(pattern, payload) };
  } catch (error) {
    const domainError = domainErrorFrom(error);
    if (!domainError) throw error;
    return { status: domainError.toBody().error, body: domainError.toBody() };
  }
}

function expectNotFound(answer: Pick<HttpAnswer, 'status' | 'body'> | Outcome, what: string): void {
  const expected = typeof answer.status === 'number' ? { status: 404, body: expect.objectContaining({ error: 'not_found' }) } : { status: 'not_found', body: expect.anything() };
  expect({ status: answer.status, body: answer.body }, what).toEqual(expected);
}

function idsOf(items: unknown): number[] {
  return (items as Array<{ id: number }>).map((item) => item.id);
}

/** The numbers of a list's items; with `field`, of the list in that field of `answer`. */
function numbersOf(items: unknown, field?: string): string[] {
  const list = field === undefined ? items : (items as Record<string, unknown>)[field];
  return (list as Array<{ number: string }>).map((item) => item.number);
}

function keyOf(tenant: { apiKey: string }) {
  return { headers: { 'x-api-key': tenant.apiKey } };
}

/** The routes Nest mapped at start, from a service's own log: `GET /smsapi/tasks/:id`. */
function mappedRoutes(lines: string[]): string[] {
  const routes = lines.flatMap((line) => [...line.matchAll(/Mapped \{([^,}]+), (GET|POST|PUT|PATCH|DELETE)\} route/g)].map((match) => `${match[2]} ${match[1]}`));
  return [...new Set(routes)].sort();
}

function allPatterns(): string[] {
  return Object.values(Patterns).flatMap((service) => Object.values(service) as string[]).sort();
}

describe('tenant isolation, Profile A: another client\'s id is a 404 on every route and message that takes one', () => {
  let stack: Stack;
  let dashboardUrl: string;
  let a: Tenant;
  let b: Tenant;
  let admin: DashboardBrowser;

  const browser = () => new DashboardBrowser(dashboardUrl, () => undefined);

  async function tenant(label: string): Promise<Tenant> {
    const dashboard = browser();
    const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
    const signedUp = await dashboard.send('POST', '/api/auth/signup', { email, password: PASSWORD });
    expect(signedUp.status).toBe(201);
    const clientId = signedUp.body.user.clientId as number;
    const key = await dashboard.send('POST', '/api/keys');
    expect(key.status).toBe(201);
    const deviceId = `device-${label}`;
    const phone = await registerPhone(stack, key.body.apiKey, { name: `${label} phone`, device_id: deviceId });
    expect(phone.status).toBe(201);
    const worker = workerApi(stack, phone.body.worker_token);
    const failed = await stack.createTask(key.body.apiKey, SMS, label === 'a' ? { 'idempotency-key': A_IDEMPOTENCY_KEY } : {});
    expect(failed.status).toBe(201);
    expect((await worker.poll()).body.id).toBe(failed.body.id);
    expect((await worker.report(failed.body.id, 'failed', 'carrier said no')).status).toBe(200);
    const first = await stack.createTask(key.body.apiKey, SMS);
    expect((await worker.poll()).body.id).toBe(first.body.id);
    const second = await stack.createTask(key.body.apiKey, { ...SMS, scheduled_at: '2099-01-01 12:00:00' });
    expect(second.status).toBe(201);
    expect((await worker.inbound({ from: '+381641111111', message: `reply to ${label}`, external_id: `reply-${label}` })).status).toBe(201);
    const replies = await dashboard.send('GET', '/api/inbox');
    const webhook = await stack.http('POST', '/smsapi/webhooks', { headers: { 'x-api-key': key.body.apiKey }, body: { url: `https://example.com/${label}`, events: ['task.sent'] } });
    expect(webhook.status).toBe(201);
    const auth = { headers: { 'x-api-key': key.body.apiKey } };
    const template = await stack.http('POST', '/smsapi/templates', { ...auth, body: { name: `${label} template`, body: `Hi {name} from ${label}` } });
    expect(template.status).toBe(201);
    const smppCredential = await dashboard.send('POST', '/api/smpp-credentials', {});
    expect(smppCredential.status).toBe(201);
    const optOutNumber = label === 'a' ? '+381643330001' : '+381643330002';
    expect((await stack.http('POST', '/smsapi/opt-outs', { ...auth, body: { numbers: [optOutNumber] } })).status).toBe(200);
    expect((await stack.http('PATCH', '/smsapi/opt-out-settings', { ...auth, body: { opt_out_words: [`ODJAVA${label.toUpperCase()}`] } })).status).toBe(200);
    // Sending rules of its own that change nothing for one phone and no windows: each tenant's are told apart by their sticky days.
    expect((await stack.http('PATCH', '/smsapi/sending-rules', { ...auth, body: { sticky_days: STICKY_DAYS[label as 'a' | 'b'] } })).status).toBe(200);
    // Scheduled far ahead, so no poll below is handed it.
    const threadNumber = label === 'a' ? '+381643331111' : '+381643332222';
    expect((await stack.createTask(key.body.apiKey, { recipient: threadNumber, message: `only of ${label}`, scheduled_at: '2099-01-01 12:00:00' })).status).toBe(201);
    return {
      clientId,
      apiKey: key.body.apiKey,
      keyId: key.body.id,
      phoneId: phone.body.phone_id,
      deviceId,
      workerToken: phone.body.worker_token,
      tokenId: await tokenIdOf(phone.body.phone_id, phone.body.worker_token),
      failedTaskId: failed.body.id,
      claimedTaskId: first.body.id,
      pendingTaskId: second.body.id,
      replyId: replies.body.items[0].id,
      webhookId: webhook.body.id,
      templateId: template.body.id,
      smppCredentialId: smppCredential.body.credential.id,
      optOutNumber,
      threadNumber,
      dashboard,
    };
  }

  async function tokenIdOf(phoneId: number, raw: string): Promise<number> {
    const rows = await stack.serviceClients().gateway.send<Array<{ id: number; prefix: string }>>(Patterns.gateway.workerTokenList, { phoneId });
    const row = rows.find((candidate) => raw.startsWith(candidate.prefix));
    if (!row) throw new Error(`no worker token row for phone ${phoneId}`);
    return row.id;
  }

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A' });
    dashboardUrl = await stack.startDashboard();
    a = await tenant('a');
    b = await tenant('b');
    const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.com`;
    await stack.adminOk('admin', 'create', '--email', adminEmail, '--password', PASSWORD);
    admin = browser();
    expect((await admin.send('POST', '/api/auth/signin', { email: adminEmail, password: PASSWORD })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const taskOfA = async () => (await stack.http('GET', `/smsapi/tasks/${a.claimedTaskId}`, { headers: { 'x-api-key': a.apiKey } })).body;
  const phonesOfA = async () => (await a.dashboard.send('GET', '/api/phones')).body as Array<{ id: number; name: string; active: boolean; dailyLimit: number | null }>;
  /** A phone's health as the phone list (the dashboard's source) shows it. */
  const healthOf = async (clientId: number, phoneId: number) =>
    (await stack.serviceClients().dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, { clientId })).find((phone) => phone.id === phoneId)?.health ?? null;

  const smppCredentialsOf = async (tenant: Tenant) => (await stack.http('GET', '/smsapi/smpp-credentials', { headers: { 'x-api-key': tenant.apiKey } })).body.items as Array<{ id: number; revoked_at: string | null }>;

  /** Public API and dashboard routes. */
  const HTTP_CASES: Record<string, IsolationCase> = {
    'GET /smsapi/smpp-credentials': {
      intrude: async () => expect(idsOf(await smppCredentialsOf(b))).not.toContain(a.smppCredentialId),
      own: async () => expect(idsOf(await smppCredentialsOf(a))).toContain(a.smppCredentialId),
    },
    'POST /smsapi/smpp-credentials': {
      intrude: async () => {
        const created = await stack.http('POST', '/smsapi/smpp-credentials', { headers: { 'x-api-key': b.apiKey }, body: {} });
        expect(created.status).toBe(201);
        expect(idsOf(await smppCredentialsOf(a))).not.toContain(created.body.id);
      },
    },
    'DELETE /smsapi/smpp-credentials/:id': {
      intrude: async () => {
        expectNotFound(await stack.http('DELETE', `/smsapi/smpp-credentials/${a.smppCredentialId}`, { headers: { 'x-api-key': b.apiKey } }), "A's SMPP credentials revoked with B's key");
        expect((await smppCredentialsOf(a)).find((credential) => credential.id === a.smppCredentialId)?.revoked_at).toBeNull();
      },
    },
    'GET /api/smpp-credentials': {
      intrude: async () => expect(idsOf((await b.dashboard.send('GET', '/api/smpp-credentials')).body.credentials)).not.toContain(a.smppCredentialId),
      own: async () => expect(idsOf((await a.dashboard.send('GET', '/api/smpp-credentials')).body.credentials)).toContain(a.smppCredentialId),
    },
    'POST /api/smpp-credentials': {
      intrude: async () => {
        const created = await b.dashboard.send('POST', '/api/smpp-credentials', {});
        expect(created.status).toBe(201);
        expect(idsOf(await smppCredentialsOf(a))).not.toContain(created.body.credential.id);
      },
    },
    'DELETE /api/smpp-credentials/:id': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('DELETE', `/api/smpp-credentials/${a.smppCredentialId}`), "A's SMPP credentials revoked from B's dashboard");
        expect((await smppCredentialsOf(a)).find((credential) => credential.id === a.smppCredentialId)?.revoked_at).toBeNull();
      },
    },
    'GET /smsapi/tasks/:id': {
      intrude: async () => expectNotFound(await stack.http('GET', `/smsapi/tasks/${a.claimedTaskId}`, { headers: { 'x-api-key': b.apiKey } }), "A's task with B's key"),
      own: async () => expect((await stack.http('GET', `/smsapi/tasks/${b.claimedTaskId}`, { headers: { 'x-api-key': b.apiKey } })).status).toBe(200),
    },
    'GET /smsapi/tasks': {
      intrude: async () => {
        const listed = await stack.http('GET', '/smsapi/tasks?limit=200', { headers: { 'x-api-key': b.apiKey } });
        expect(idsOf(listed.body.items)).not.toContain(a.pendingTaskId);
        expect(idsOf(listed.body.items)).not.toContain(a.claimedTaskId);
      },
      own: async () => {
        const listed = await stack.http('GET', '/smsapi/tasks?limit=200', { headers: { 'x-api-key': b.apiKey } });
        expect(idsOf(listed.body.items)).toContain(b.pendingTaskId);
      },
    },
    'GET /smsapi/phones': {
      intrude: async () => {
        const listed = await stack.http('GET', '/smsapi/phones', { headers: { 'x-api-key': b.apiKey } });
        expect(idsOf(listed.body.phones)).not.toContain(a.phoneId);
      },
      own: async () => {
        const listed = await stack.http('GET', '/smsapi/phones', { headers: { 'x-api-key': b.apiKey } });
        expect(idsOf(listed.body.phones)).toContain(b.phoneId);
      },
    },
    'PATCH /smsapi/phones/:id': {
      intrude: async () => {
        expectNotFound(await stack.http('PATCH', `/smsapi/phones/${a.phoneId}`, { headers: { 'x-api-key': b.apiKey }, body: { daily_limit: 0 } }), "A's phone limited with B's key");
        expect((await phonesOfA()).map((phone) => phone.dailyLimit)).toEqual([null]);
      },
    },
    'POST /smsapi/phones/:id/resume': {
      // Answered as it is when not paused: B's own phone is 200, A's is not found and stays as it was.
      intrude: async () => {
        expectNotFound(await stack.http('POST', `/smsapi/phones/${a.phoneId}/resume`, keyOf(b)), "A's phone resumed with B's key");
        expect((await phonesOfA()).map(({ name, active }) => ({ name, active }))).toEqual([{ name: 'a phone', active: true }]);
      },
      own: async () => expect((await stack.http('POST', `/smsapi/phones/${b.phoneId}/resume`, keyOf(b))).body).toMatchObject({ id: b.phoneId, paused_until: null }),
    },
    'GET /smsapi/sending-rules': {
      intrude: async () => expect((await stack.http('GET', '/smsapi/sending-rules', keyOf(b))).body).toMatchObject({ sticky_days: STICKY_DAYS.b }),
      own: async () => expect((await stack.http('GET', '/smsapi/sending-rules', keyOf(a))).body).toMatchObject({ sticky_days: STICKY_DAYS.a }),
    },
    'PATCH /smsapi/sending-rules': {
      // The rules changed are the caller's own: A's stay as A set them. (B's own stay as they are: its routing is what later cases rely on.)
      intrude: async () => {
        expect((await stack.http('PATCH', '/smsapi/sending-rules', { ...keyOf(b), body: { routing_mode: 'first', sticky_days: STICKY_DAYS.b } })).status).toBe(200);
        expect((await stack.http('GET', '/smsapi/sending-rules', keyOf(a))).body).toMatchObject({ routing_mode: 'first', sticky_days: STICKY_DAYS.a });
      },
    },
    'POST /smsapi/tasks/:id/cancel': {
      intrude: async () => {
        const before = await stack.credits(a.clientId);
        expectNotFound(await stack.http('POST', `/smsapi/tasks/${a.pendingTaskId}/cancel`, { headers: { 'x-api-key': b.apiKey } }), "A's task cancelled with B's key");
        const task = await stack.http('GET', `/smsapi/tasks/${a.pendingTaskId}`, { headers: { 'x-api-key': a.apiKey } });
        expect(task.body.status).toBe('pending');
        expect(await stack.credits(a.clientId)).toBe(before);
      },
      own: async () => {
        const queued = await stack.createTask(b.apiKey, { ...SMS, scheduled_at: '2099-01-01 12:00:00' });
        expect((await stack.http('POST', `/smsapi/tasks/${queued.body.id}/cancel`, { headers: { 'x-api-key': b.apiKey } })).status).toBe(200);
      },
    },
    'POST /smsapi/task-status': {
      intrude: async () => {
        expectNotFound(await workerApi(stack, b.workerToken).report(a.claimedTaskId, 'failed', 'not mine'), "A's claimed task reported by B's token");
        expectNotFound(await workerApi(stack, b.workerToken).report(a.claimedTaskId, 'delivered'), "A's claimed task reported delivered by B's token");
        expect((await taskOfA()).status).toBe('claimed');
      },
      own: async () => expect((await workerApi(stack, b.workerToken).report(b.claimedTaskId, 'sent')).status).toBe(200),
    },
    'POST /smsapi/task-statuses': {
      // Each report is task-status: A's task is not found for B's token, in its place.
      intrude: async () => {
        const answer = await workerApi(stack, b.workerToken).reportMany({ reports: [{ id: a.claimedTaskId, status: 'failed', error: 'not mine' }] });
        expect(answer.status).toBe(200);
        expect(answer.body.results, "A's claimed task reported by B's token in a batch").toEqual([expect.objectContaining({ ok: false, error: 'not_found', http_status: 404 })]);
        expect((await taskOfA()).status).toBe('claimed');
      },
      own: async () => expect((await workerApi(stack, b.workerToken).reportMany({ reports: [{ id: b.claimedTaskId, status: 'sent' }] })).body.results).toEqual([{ ok: true, id: b.claimedTaskId, status: 'sent' }]),
    },
    'POST /smsapi/create-task': {
      // DESIGN.md §3: another client's phone_id is ignored as if omitted; the Idempotency-Key is scoped to the client.
      intrude: async () => {
        const created = await stack.createTask(b.apiKey, { ...SMS, phone_id: a.phoneId }, { 'idempotency-key': A_IDEMPOTENCY_KEY });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ client_id: b.clientId, phone_id: b.phoneId });
        expect(created.body.id).not.toBe(a.failedTaskId);
      },
    },
    'POST /smsapi/webhooks': {
      // The endpoint is the caller's own: A's list does not show it.
      intrude: async () => {
        const created = await stack.http('POST', '/smsapi/webhooks', { headers: { 'x-api-key': b.apiKey }, body: { url: 'https://example.com/b', events: ['task.sent'] } });
        expect(created.status).toBe(201);
        const listedForA = await stack.http('GET', '/smsapi/webhooks', { headers: { 'x-api-key': a.apiKey } });
        expect(idsOf(listedForA.body.items)).not.toContain(created.body.id);
      },
    },
    'GET /smsapi/webhooks': {
      intrude: async () => {
        const listed = await stack.http('GET', '/smsapi/webhooks', { headers: { 'x-api-key': b.apiKey } });
        expect(idsOf(listed.body.items)).not.toContain(a.webhookId);
      },
      own: async () => expect(idsOf((await stack.http('GET', '/smsapi/webhooks', { headers: { 'x-api-key': a.apiKey } })).body.items)).toContain(a.webhookId),
    },
    'DELETE /smsapi/webhooks/:id': {
      intrude: async () => {
        expectNotFound(await stack.http('DELETE', `/smsapi/webhooks/${a.webhookId}`, { headers: { 'x-api-key': b.apiKey } }), "A's webhook deleted with B's key");
        expect(idsOf((await stack.http('GET', '/smsapi/webhooks', { headers: { 'x-api-key': a.apiKey } })).body.items)).toContain(a.webhookId);
      },
    },
    'POST /smsapi/webhooks/:id/rotate-secret': {
      intrude: async () => expectNotFound(await stack.http('POST', `/smsapi/webhooks/${a.webhookId}/rotate-secret`, { headers: { 'x-api-key': b.apiKey } }), "A's webhook secret rotated with B's key"),
    },
    'POST /smsapi/webhooks/:id/enable': {
      intrude: async () => expectNotFound(await stack.http('POST', `/smsapi/webhooks/${a.webhookId}/enable`, { headers: { 'x-api-key': b.apiKey } }), "A's webhook enabled with B's key"),
    },
    'POST /api/webhooks/:id/enable': {
      intrude: async () => expectNotFound(await b.dashboard.send('POST', `/api/webhooks/${a.webhookId}/enable`), "A's webhook enabled from B's dashboard"),
    },
    'GET /api/webhooks': {
      intrude: async () => {
        const listed = await b.dashboard.send('GET', '/api/webhooks');
        expect(listed.status).toBe(200);
        expect(idsOf(listed.body.endpoints)).not.toContain(a.webhookId);
      },
      own: async () => expect(idsOf((await a.dashboard.send('GET', '/api/webhooks')).body.endpoints)).toContain(a.webhookId),
    },
    'POST /api/webhooks': {
      intrude: async () => {
        const created = await b.dashboard.send('POST', '/api/webhooks', { url: 'https://example.com/b-dashboard', events: ['task.failed'] });
        expect(created.status).toBe(201);
        expect(idsOf((await a.dashboard.send('GET', '/api/webhooks')).body.endpoints)).not.toContain(created.body.webhook.id);
      },
    },
    'DELETE /api/webhooks/:id': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('DELETE', `/api/webhooks/${a.webhookId}`), "A's webhook deleted from B's dashboard");
        expect(idsOf((await a.dashboard.send('GET', '/api/webhooks')).body.endpoints)).toContain(a.webhookId);
      },
    },
    'POST /api/webhooks/:id/rotate': {
      intrude: async () => expectNotFound(await b.dashboard.send('POST', `/api/webhooks/${a.webhookId}/rotate`), "A's webhook secret rotated from B's dashboard"),
    },
    'GET /api/webhooks/:id/deliveries': {
      intrude: async () => expectNotFound(await b.dashboard.send('GET', `/api/webhooks/${a.webhookId}/deliveries`), "A's webhook deliveries in B's dashboard"),
      own: async () => expect((await a.dashboard.send('GET', `/api/webhooks/${a.webhookId}/deliveries`)).status).toBe(200),
    },
    'POST /api/webhooks/:id/test': {
      intrude: async () => expectNotFound(await b.dashboard.send('POST', `/api/webhooks/${a.webhookId}/test`), "a test event sent to A's webhook from B's dashboard"),
    },
    'POST /api/webhooks/deliveries/:deliveryId/redeliver': {
      intrude: async () => {
        const test = await a.dashboard.send('POST', `/api/webhooks/${a.webhookId}/test`);
        expect(test.status).toBe(201);
        expectNotFound(await b.dashboard.send('POST', `/api/webhooks/deliveries/${test.body.id}/redeliver`), "A's webhook delivery sent again from B's dashboard");
      },
    },
    'POST /smsapi/create-tasks': {
      // Each item is create-task: another client's phone_id is ignored, as if omitted.
      intrude: async () => {
        const answer = await stack.http('POST', '/smsapi/create-tasks', { headers: { 'x-api-key': b.apiKey }, body: { tasks: [{ ...SMS, phone_id: a.phoneId }] } });
        expect(answer.status).toBe(200);
        expect(answer.body.results).toEqual([expect.objectContaining({ ok: true, client_id: b.clientId, phone_id: b.phoneId })]);
      },
    },
    'GET /smsapi/pending-tasks': {
      // A has a task due for its phone (returned below by nothing else); B's token must never be given it.
      intrude: async () => {
        const extra = await stack.createTask(a.apiKey, SMS);
        expect(extra.status).toBe(201);
        const polled = await workerApi(stack, b.workerToken).poll(0);
        expect(polled.status).toBe(200);
        expect(polled.body.client_id ?? b.clientId).toBe(b.clientId);
        expect((await workerApi(stack, a.workerToken).poll(0)).body.id).toBe(extra.body.id);
      },
    },
    'POST /smsapi/register-phone': {
      // The same device id under another client is another phone; A's phone and token stay as they were.
      intrude: async () => {
        const registered = await registerPhone(stack, b.apiKey, { name: 'taken device', device_id: a.deviceId });
        expect(registered.status).toBe(201);
        expect(registered.body.phone_id).not.toBe(a.phoneId);
        expect((await workerApi(stack, a.workerToken).poll(0)).status).toBe(200);
        expect((await phonesOfA()).map((phone) => phone.name)).toEqual(['a phone']);
      },
    },
    'POST /smsapi/phone-health': {
      // The phone comes from the token: B's token can only report B's phone.
      intrude: async () => {
        expect((await workerApi(stack, b.workerToken).health({ battery_percent: 11, connection: 'reported by b' })).status).toBe(200);
        expect((await healthOf(a.clientId, a.phoneId))?.connection).not.toBe('reported by b');
      },
      own: async () => expect(await healthOf(b.clientId, b.phoneId)).toMatchObject({ batteryPercent: 11, connection: 'reported by b' }),
    },
    'GET /smsapi/reply-keywords': {
      // The client comes from the token's phone: B's token reads B's own words (ODJAVAB), never A's (ODJAVAA).
      intrude: async () => expect((await stack.http('GET', '/smsapi/reply-keywords', { headers: { 'x-worker-token': b.workerToken } })).body.opt_out_words).not.toContain('ODJAVAA'),
      own: async () => expect((await stack.http('GET', '/smsapi/reply-keywords', { headers: { 'x-worker-token': b.workerToken } })).body.opt_out_words).toEqual(['ODJAVAB']),
    },
    'POST /smsapi/inbound': {
      // The phone comes from the token: B's token can only store replies as B's.
      intrude: async () => {
        expect((await workerApi(stack, b.workerToken).inbound({ from: '+381642222222', message: 'for b only', external_id: 'x-b' })).status).toBe(201);
        const inboxOfA = (await a.dashboard.send('GET', '/api/inbox')).body.items as Array<{ message: string }>;
        expect(inboxOfA.map((reply) => reply.message)).not.toContain('for b only');
      },
    },
    'DELETE /api/keys/:id': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('DELETE', `/api/keys/${a.keyId}`), "A's key revoked from B's dashboard");
        expect((await stack.http('GET', `/smsapi/tasks/${a.claimedTaskId}`, { headers: { 'x-api-key': a.apiKey } })).status).toBe(200);
      },
      own: async () => {
        const spare = await b.dashboard.send('POST', '/api/keys');
        expect((await b.dashboard.send('DELETE', `/api/keys/${spare.body.id}`)).status).toBe(204);
      },
    },
    'PATCH /api/phones/:id': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('PATCH', `/api/phones/${a.phoneId}`, { name: 'renamed by b' }), "A's phone renamed from B's dashboard");
        expectNotFound(await b.dashboard.send('PATCH', `/api/phones/${a.phoneId}`, { active: false }), "A's phone disabled from B's dashboard");
        expect((await phonesOfA()).map(({ name, active }) => ({ name, active }))).toEqual([{ name: 'a phone', active: true }]);
      },
      own: async () => expect((await b.dashboard.send('PATCH', `/api/phones/${b.phoneId}`, { name: 'b phone' })).status).toBe(200),
    },
    'POST /api/phones/:id/resume': {
      intrude: async () => expectNotFound(await b.dashboard.send('POST', `/api/phones/${a.phoneId}/resume`), "A's phone resumed from B's dashboard"),
      own: async () => expect((await b.dashboard.send('POST', `/api/phones/${b.phoneId}/resume`)).status).toBe(200),
    },
    'GET /api/settings/sending': {
      intrude: async () => expect((await b.dashboard.send('GET', '/api/settings/sending')).body).toMatchObject({ stickyDays: STICKY_DAYS.b }),
      own: async () => expect((await a.dashboard.send('GET', '/api/settings/sending')).body).toMatchObject({ stickyDays: STICKY_DAYS.a }),
    },
    'PUT /api/settings/sending': {
      intrude: async () => {
        expect((await b.dashboard.send('PUT', '/api/settings/sending', { routingMode: 'first', stickyDays: STICKY_DAYS.b, sendWindows: [] })).status).toBe(200);
        expect((await a.dashboard.send('GET', '/api/settings/sending')).body).toMatchObject({ routingMode: 'first', stickyDays: STICKY_DAYS.a });
      },
    },
    'POST /api/send': {
      // The session's client sends: another client's phone_id cannot be asked for, and only B is charged.
      intrude: async () => {
        const before = await stack.credits(a.clientId);
        const answer = await b.dashboard.send('POST', '/api/send', { messages: [{ recipient: SMS.recipient, message: 'from b' }], idempotencyKey: 'send-of-b' });
        expect(answer.status).toBe(200);
        const task = await stack.http('GET', `/smsapi/tasks/${answer.body.results[0].id}`, { headers: { 'x-api-key': b.apiKey } });
        expect(task.body).toMatchObject({ client_id: b.clientId, phone_id: b.phoneId, message: 'from b' });
        expect(await stack.credits(a.clientId)).toBe(before);
      },
    },
    'POST /api/send/check': {
      // Read with B's own rules (its time zone); nothing is queued for anyone.
      intrude: async () => {
        const answer = await b.dashboard.send('POST', '/api/send/check', { messages: [{ recipient: SMS.recipient, message: 'only looked at' }] });
        expect(answer.body.results).toEqual([expect.objectContaining({ ok: true, message: 'only looked at' })]);
      },
    },
    'GET /api/tasks/:id': {
      intrude: async () => expectNotFound(await b.dashboard.send('GET', `/api/tasks/${a.claimedTaskId}`), "A's task in B's dashboard"),
      own: async () => expect((await b.dashboard.send('GET', `/api/tasks/${b.claimedTaskId}`)).status).toBe(200),
    },
    'POST /api/tasks/:id/resend': {
      intrude: async () => {
        const before = await stack.credits(b.clientId);
        expectNotFound(await b.dashboard.send('POST', `/api/tasks/${a.failedTaskId}/resend`), "A's failed task resent from B's dashboard");
        expect(await stack.credits(b.clientId)).toBe(before);
      },
      own: async () => expect((await b.dashboard.send('POST', `/api/tasks/${b.failedTaskId}/resend`)).status).toBe(201),
    },
    'GET /api/tasks': {
      intrude: async () => {
        const page = await b.dashboard.send('GET', '/api/tasks');
        expect(page.status).toBe(200);
        expect(idsOf(page.body.items)).toContain(b.claimedTaskId);
        expect(idsOf(page.body.items)).not.toContain(a.claimedTaskId);
        expect(idsOf(page.body.items)).not.toContain(a.pendingTaskId);
      },
    },
    'GET /smsapi/opt-outs': {
      intrude: async () => expect(numbersOf((await stack.http('GET', '/smsapi/opt-outs', keyOf(b))).body.items)).not.toContain(a.optOutNumber),
      own: async () => expect(numbersOf((await stack.http('GET', '/smsapi/opt-outs', keyOf(b))).body.items)).toContain(b.optOutNumber),
    },
    'POST /smsapi/opt-outs': {
      intrude: async () => {
        expect((await stack.http('POST', '/smsapi/opt-outs', { ...keyOf(b), body: { numbers: ['+381643339901'] } })).status).toBe(200);
        expect(numbersOf((await stack.http('GET', '/smsapi/opt-outs', keyOf(a))).body.items)).not.toContain('+381643339901');
      },
    },
    'DELETE /smsapi/opt-outs/:number': {
      intrude: async () => {
        expectNotFound(await stack.http('DELETE', `/smsapi/opt-outs/${encodeURIComponent(a.optOutNumber)}`, keyOf(b)), "A's opt-out removed with B's key");
        expect(numbersOf((await stack.http('GET', '/smsapi/opt-outs', keyOf(a))).body.items)).toContain(a.optOutNumber);
      },
    },
    'GET /smsapi/opt-out-settings': {
      intrude: async () => expect((await stack.http('GET', '/smsapi/opt-out-settings', keyOf(b))).body.opt_out_words).toEqual(['ODJAVAB']),
    },
    'PATCH /smsapi/opt-out-settings': {
      intrude: async () => {
        expect((await stack.http('PATCH', '/smsapi/opt-out-settings', { ...keyOf(b), body: { opt_in_words: ['PRIJAVAB'] } })).status).toBe(200);
        expect((await stack.http('GET', '/smsapi/opt-out-settings', keyOf(a))).body).toMatchObject({ opt_out_words: ['ODJAVAA'], opt_in_words: [] });
      },
    },
    'GET /smsapi/templates': {
      intrude: async () => expect(idsOf((await stack.http('GET', '/smsapi/templates', keyOf(b))).body.items)).not.toContain(a.templateId),
      own: async () => expect(idsOf((await stack.http('GET', '/smsapi/templates', keyOf(b))).body.items)).toContain(b.templateId),
    },
    'POST /smsapi/templates': {
      intrude: async () => {
        const created = await stack.http('POST', '/smsapi/templates', { ...keyOf(b), body: { name: 'a template', body: 'same name as A, another client' } });
        expect(created.status).toBe(201);
        expect(idsOf((await stack.http('GET', '/smsapi/templates', keyOf(a))).body.items)).not.toContain(created.body.id);
      },
    },
    'GET /smsapi/templates/:id': {
      intrude: async () => {
        expectNotFound(await stack.http('GET', `/smsapi/templates/${a.templateId}`, keyOf(b)), "A's template read with B's key");
        expect((await stack.createTask(b.apiKey, { ...SMS, message: undefined, template_id: a.templateId, variables: { name: 'x' } })).body).toMatchObject({ error: 'invalid_request' });
      },
      own: async () => expect((await stack.http('GET', `/smsapi/templates/${b.templateId}`, keyOf(b))).status).toBe(200),
    },
    'PUT /smsapi/templates/:id': {
      intrude: async () => {
        expectNotFound(await stack.http('PUT', `/smsapi/templates/${a.templateId}`, { ...keyOf(b), body: { name: 'taken', body: 'changed by b' } }), "A's template changed with B's key");
        expect((await stack.http('GET', `/smsapi/templates/${a.templateId}`, keyOf(a))).body.body).toBe('Hi {name} from a');
      },
    },
    'DELETE /smsapi/templates/:id': {
      intrude: async () => {
        expectNotFound(await stack.http('DELETE', `/smsapi/templates/${a.templateId}`, keyOf(b)), "A's template deleted with B's key");
        expect((await stack.http('GET', `/smsapi/templates/${a.templateId}`, keyOf(a))).status).toBe(200);
      },
    },
    'GET /api/opt-outs': {
      intrude: async () => expect(numbersOf((await b.dashboard.send('GET', '/api/opt-outs')).body.items)).not.toContain(a.optOutNumber),
      own: async () => expect(numbersOf((await b.dashboard.send('GET', '/api/opt-outs')).body.items)).toContain(b.optOutNumber),
    },
    'POST /api/opt-outs': {
      intrude: async () => {
        expect((await b.dashboard.send('POST', '/api/opt-outs', { numbers: ['+381643339902'] })).status).toBe(200);
        expect(numbersOf((await a.dashboard.send('GET', '/api/opt-outs')).body.items)).not.toContain('+381643339902');
      },
    },
    'DELETE /api/opt-outs/:number': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('DELETE', `/api/opt-outs/${encodeURIComponent(a.optOutNumber)}`), "A's opt-out removed from B's dashboard");
        expect(numbersOf((await a.dashboard.send('GET', '/api/opt-outs')).body.items)).toContain(a.optOutNumber);
      },
    },
    'GET /api/opt-out-settings': {
      intrude: async () => expect((await b.dashboard.send('GET', '/api/opt-out-settings')).body.optOutWords).toEqual(['ODJAVAB']),
    },
    'PUT /api/opt-out-settings': {
      intrude: async () => {
        expect((await b.dashboard.send('PUT', '/api/opt-out-settings', { optOutWords: ['ODJAVAB'], optInWords: [], cancelQueued: false })).status).toBe(200);
        expect((await a.dashboard.send('GET', '/api/opt-out-settings')).body).toMatchObject({ optOutWords: ['ODJAVAA'], cancelQueued: true });
      },
    },
    'GET /api/templates': {
      intrude: async () => expect(idsOf((await b.dashboard.send('GET', '/api/templates')).body)).not.toContain(a.templateId),
      own: async () => expect(idsOf((await b.dashboard.send('GET', '/api/templates')).body)).toContain(b.templateId),
    },
    'POST /api/templates': {
      intrude: async () => {
        const created = await b.dashboard.send('POST', '/api/templates', { name: 'from b dashboard', body: 'hello' });
        expect(created.status).toBe(201);
        expect(idsOf((await a.dashboard.send('GET', '/api/templates')).body)).not.toContain(created.body.id);
      },
    },
    'PUT /api/templates/:id': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('PUT', `/api/templates/${a.templateId}`, { name: 'x', body: 'changed by b' }), "A's template changed from B's dashboard");
        expect((await stack.http('GET', `/smsapi/templates/${a.templateId}`, keyOf(a))).body.body).toBe('Hi {name} from a');
      },
    },
    'DELETE /api/templates/:id': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('DELETE', `/api/templates/${a.templateId}`), "A's template deleted from B's dashboard");
        expect((await stack.http('GET', `/smsapi/templates/${a.templateId}`, keyOf(a))).status).toBe(200);
      },
    },
    'GET /api/conversations': {
      intrude: async () => {
        const threads = (await b.dashboard.send('GET', '/api/conversations')).body.items as Array<{ number: string; lastText: string }>;
        expect(threads.map((thread) => thread.number)).not.toContain(a.threadNumber);
        expect(threads.map((thread) => thread.lastText)).not.toContain('reply to a');
      },
      own: async () => expect(numbersOf((await b.dashboard.send('GET', '/api/conversations')).body.items)).toContain(b.threadNumber),
    },
    'GET /api/conversations/:number': {
      intrude: async () => {
        expectNotFound(await b.dashboard.send('GET', `/api/conversations/${encodeURIComponent(a.threadNumber)}`), "A's conversation in B's dashboard");
        // Both replied from this number: B's thread holds B's reply only (its thread comes with inbox's relay, so it may take a moment).
        await eventually(async () => {
          const shared = await b.dashboard.send('GET', `/api/conversations/${encodeURIComponent('+381641111111')}`);
          expect((shared.body.messages as Array<{ message: string }> | undefined)?.map((message) => message.message)).toEqual(['reply to b']);
        });
      },
      own: async () => expect((await b.dashboard.send('GET', `/api/conversations/${encodeURIComponent(b.threadNumber)}`)).status).toBe(200),
    },
    'POST /api/conversations/:number/read': {
      intrude: async () => expectNotFound(await b.dashboard.send('POST', `/api/conversations/${encodeURIComponent(a.threadNumber)}/read`), "A's conversation marked read from B's dashboard"),
      own: async () => expect((await b.dashboard.send('POST', `/api/conversations/${encodeURIComponent(b.threadNumber)}/read`)).status).toBe(204),
    },
    'POST /api/conversations/:number/reply': {
      intrude: async () => {
        const before = await stack.credits(b.clientId);
        expectNotFound(await b.dashboard.send('POST', `/api/conversations/${encodeURIComponent(a.threadNumber)}/reply`, { message: 'from b', idempotencyKey: 'reply-of-b' }), "a reply in A's conversation from B's dashboard");
        expect(await stack.credits(b.clientId)).toBe(before);
      },
    },
    'GET /api/inbox': {
      intrude: async () => {
        const page = await b.dashboard.send('GET', '/api/inbox');
        expect(idsOf(page.body.items)).toContain(b.replyId);
        expect(idsOf(page.body.items)).not.toContain(a.replyId);
      },
    },
    'GET /api/phones': {
      intrude: async () => {
        const phones = await b.dashboard.send('GET', '/api/phones');
        expect(idsOf(phones.body)).toContain(b.phoneId);
        expect(idsOf(phones.body)).not.toContain(a.phoneId);
      },
    },
    'GET /api/keys': {
      intrude: async () => {
        const keys = await b.dashboard.send('GET', '/api/keys');
        expect(idsOf(keys.body)).toContain(b.keyId);
        expect(idsOf(keys.body)).not.toContain(a.keyId);
      },
    },
    'GET /api/overview': {
      intrude: async () => expect((await b.dashboard.send('GET', '/api/overview')).body.clientId).toBe(b.clientId),
    },
    // Admin routes do not exist for a client: 404, whatever the id, and nothing changes.
    'GET /api/admin/clients/:id': adminOnly('GET', () => `/api/admin/clients/${a.clientId}`),
    'PUT /api/admin/clients/:id/plan': adminOnly('PUT', () => `/api/admin/clients/${a.clientId}/plan`, () => ({ plan: 'pro' })),
    'POST /api/admin/clients/:id/credits': adminOnly('POST', () => `/api/admin/clients/${a.clientId}/credits`, () => ({ amount: 1000 })),
    'PUT /api/admin/clients/:id/disabled': adminOnly('PUT', () => `/api/admin/clients/${a.clientId}/disabled`, () => ({ disabled: true })),
    'POST /api/admin/clients/:id/keys': adminOnly('POST', () => `/api/admin/clients/${a.clientId}/keys`),
    'DELETE /api/admin/keys/:id': adminOnly('DELETE', () => `/api/admin/keys/${a.keyId}`),
    'PATCH /api/admin/gateways/:id': adminOnly('PATCH', () => `/api/admin/gateways/${a.phoneId}`, () => ({ active: false })),
    'POST /api/admin/gateways/:id/resume': adminOnly('POST', () => `/api/admin/gateways/${a.phoneId}/resume`),
    'DELETE /api/admin/worker-tokens/:id': adminOnly('DELETE', () => `/api/admin/worker-tokens/${a.tokenId}`),
    'GET /api/admin/clients': adminOnly('GET', () => '/api/admin/clients'),
    'POST /api/admin/clients': adminOnly('POST', () => '/api/admin/clients', () => ({ name: 'made by b' })),
    'GET /api/admin/gateways': adminOnly('GET', () => '/api/admin/gateways', undefined, { ownInProfileA: false }),
    'POST /api/admin/gateways': adminOnly('POST', () => '/api/admin/gateways', () => ({ name: 'b gateway', url: 'http://127.0.0.1:9/' })),
    'GET /api/admin/worker-tokens': adminOnly('GET', () => '/api/admin/worker-tokens'),
    'POST /api/admin/worker-tokens': adminOnly('POST', () => '/api/admin/worker-tokens', () => ({ phoneId: a.phoneId })),
    'GET /api/admin/system': adminOnly('GET', () => '/api/admin/system'),
  };

  function adminOnly(method: string, path: () => string, body: () => unknown = () => undefined, options = { ownInProfileA: true }): IsolationCase {
    return {
      intrude: async () => {
        const creditsBefore = await stack.credits(a.clientId);
        expectNotFound(await b.dashboard.send(method, path(), body()), `${method} ${path()} by a client`);
        expect(await stack.credits(a.clientId)).toBe(creditsBefore);
        expect((await stack.http('GET', `/smsapi/tasks/${a.claimedTaskId}`, { headers: { 'x-api-key': a.apiKey } })).status).toBe(200);
        expect((await workerApi(stack, a.workerToken).poll(0)).status).toBe(200);
      },
      // GET routes only: an admin's write would change what later cases rely on. Gateways exist in Profile B only.
      own: method === 'GET' && options.ownInProfileA ? async () => expect((await admin.send(method, path())).status).toBe(200) : undefined,
    };
  }

  /** Routes that name nothing a client owns. */
  const HTTP_WITHOUT_OWNED_ID: Record<string, string> = {
    'GET /smsapi/openapi.json': 'the public API\'s description, the same for everyone',
    'GET /api/auth/session': 'the caller\'s own session',
    'POST /api/auth/signup': 'creates a new user and client',
    'POST /api/auth/signin': 'email and password only',
    'POST /api/auth/signout': 'ends the caller\'s own session',
    'POST /api/auth/password': 'changes the session\'s own user\'s password, given its current one',
    'POST /api/auth/password-reset': 'an email address only, answered alike whoever it belongs to',
    'POST /api/auth/password-reset/complete': 'a reset token only, which names its own user',
    'GET /api/settings': 'the session\'s own client\'s settings',
    'PUT /api/settings/time-zone': 'changes the session\'s own client\'s time zone',
    'POST /api/keys': 'creates a key for the session\'s own client',
  };

  const services = () => stack.serviceClients();

  /** Broker patterns that carry a client id (the caller's) and an id of something owned. */
  const MESSAGE_CASES: Record<string, IsolationCase> = {
    [Patterns.gateway.keyRevoke]: {
      intrude: async () => expectNotFound(await rpc(services().gateway, Patterns.gateway.keyRevoke, { keyId: a.keyId, clientId: b.clientId }), "A's key revoked for B"),
    },
    [Patterns.gateway.keyList]: {
      intrude: async () => {
        const listed = await rpc(services().gateway, Patterns.gateway.keyList, { clientId: b.clientId });
        expect(idsOf(listed.body)).toContain(b.keyId);
        expect(idsOf(listed.body)).not.toContain(a.keyId);
      },
    },
    [Patterns.gateway.tasksSend]: {
      intrude: async () => {
        const before = await stack.credits(a.clientId);
        const sent = await rpc(services().gateway, Patterns.gateway.tasksSend, { clientId: b.clientId, tasks: [{ ...SMS, phone_id: a.phoneId }] });
        expect((sent.body as { results: unknown[] }).results).toEqual([expect.objectContaining({ ok: true, client_id: b.clientId, phone_id: b.phoneId })]);
        expect(await stack.credits(a.clientId)).toBe(before);
      },
    },
    [Patterns.gateway.tasksCheck]: {
      intrude: async () => expect((await rpc(services().gateway, Patterns.gateway.tasksCheck, { clientId: b.clientId, tasks: [SMS] })).status).toBe('ok'),
    },
    [Patterns.dispatch.webhookList]: {
      intrude: async () => expect(idsOf((await rpc(services().dispatch, Patterns.dispatch.webhookList, { clientId: b.clientId })).body)).not.toContain(a.webhookId),
    },
    [Patterns.dispatch.webhookDelete]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.webhookDelete, { clientId: b.clientId, id: a.webhookId }), "A's webhook deleted for B"),
    },
    [Patterns.dispatch.webhookCreate]: {
      // Created for the client named, which the gateway takes from the API key.
      intrude: async () => {
        const created = await rpc(services().dispatch, Patterns.dispatch.webhookCreate, { clientId: b.clientId, url: 'https://example.com/b2', events: ['task.sent'] });
        expect(idsOf((await rpc(services().dispatch, Patterns.dispatch.webhookList, { clientId: a.clientId })).body)).not.toContain((created.body as { endpoint: { id: number } }).endpoint.id);
      },
    },
    [Patterns.dispatch.webhookEnable]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.webhookEnable, { clientId: b.clientId, id: a.webhookId }), "A's webhook enabled for B"),
    },
    [Patterns.dispatch.webhookRotate]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.webhookRotate, { clientId: b.clientId, id: a.webhookId }), "A's webhook secret rotated for B"),
    },
    [Patterns.dispatch.webhookDeliveries]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.webhookDeliveries, { clientId: b.clientId, endpointId: a.webhookId }), "A's webhook deliveries for B"),
    },
    [Patterns.dispatch.webhookTest]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.webhookTest, { clientId: b.clientId, endpointId: a.webhookId }), "a test event to A's webhook for B"),
    },
    [Patterns.dispatch.webhookRedeliver]: {
      intrude: async () => {
        const test = await rpc(services().dispatch, Patterns.dispatch.webhookTest, { clientId: a.clientId, endpointId: a.webhookId });
        expectNotFound(await rpc(services().dispatch, Patterns.dispatch.webhookRedeliver, { clientId: b.clientId, deliveryId: (test.body as { id: string }).id }), "A's webhook delivery sent again for B");
      },
    },
    [Patterns.dispatch.taskGet]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.taskGet, { clientId: b.clientId, id: a.claimedTaskId }), "A's task for B"),
      own: async () => expect((await rpc(services().dispatch, Patterns.dispatch.taskGet, { clientId: b.clientId, id: b.claimedTaskId })).status).toBe('ok'),
    },
    [Patterns.dispatch.taskFeed]: {
      intrude: async () => {
        const listed = await rpc(services().dispatch, Patterns.dispatch.taskFeed, { clientId: b.clientId, limit: 200 });
        expect(idsOf((listed.body as { items: unknown }).items)).not.toContain(a.pendingTaskId);
      },
    },
    [Patterns.dispatch.taskCancel]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.taskCancel, { clientId: b.clientId, id: a.pendingTaskId }), "A's task cancelled for B"),
    },
    [Patterns.dispatch.taskResend]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.taskResend, { clientId: b.clientId, id: a.failedTaskId, taskKey: randomUUID(), deadline: new Date(Date.now() + 60_000).toISOString() }), "A's task resent for B"),
    },
    [Patterns.dispatch.taskList]: {
      intrude: async () => {
        const listed = await rpc(services().dispatch, Patterns.dispatch.taskList, { clientId: b.clientId, page: 1, pageSize: 200 });
        expect(idsOf((listed.body as { items: unknown }).items)).not.toContain(a.claimedTaskId);
      },
    },
    [Patterns.dispatch.taskReport]: {
      intrude: async () => {
        expectNotFound(await rpc(services().dispatch, Patterns.dispatch.taskReport, { tokenId: b.tokenId, id: a.claimedTaskId, status: 'sent' }), "A's task reported by B's token");
        expect((await taskOfA()).status).toBe('claimed');
      },
    },
    [Patterns.dispatch.taskReportBatch]: {
      intrude: async () => {
        const answer = await rpc(services().dispatch, Patterns.dispatch.taskReportBatch, { tokenId: b.tokenId, reports: [{ id: a.claimedTaskId, status: 'sent' }] });
        expect(answer.body, "A's task reported by B's token in a batch").toEqual({ results: [{ ok: false, error: expect.objectContaining({ error: 'not_found' }) }] });
        expect((await taskOfA()).status).toBe('claimed');
      },
    },
    [Patterns.dispatch.taskRelease]: {
      intrude: async () => {
        await rpc(services().dispatch, Patterns.dispatch.taskRelease, { tokenId: b.tokenId, id: a.claimedTaskId });
        expect((await taskOfA()).status).toBe('claimed');
      },
    },
    [Patterns.dispatch.phoneRename]: {
      intrude: async () => {
        expectNotFound(await rpc(services().dispatch, Patterns.dispatch.phoneRename, { phoneId: a.phoneId, clientId: b.clientId, name: 'renamed by b' }), "A's phone renamed for B");
        expect((await phonesOfA()).map((phone) => phone.name)).toEqual(['a phone']);
      },
    },
    [Patterns.dispatch.phoneSetActive]: {
      intrude: async () => {
        expectNotFound(await rpc(services().dispatch, Patterns.dispatch.phoneSetActive, { phoneId: a.phoneId, clientId: b.clientId, kind: 'own', active: false }), "A's phone disabled for B");
        expect((await phonesOfA()).map((phone) => phone.active)).toEqual([true]);
      },
    },
    [Patterns.dispatch.phoneSetLimits]: {
      intrude: async () => {
        expectNotFound(await rpc(services().dispatch, Patterns.dispatch.phoneSetLimits, { phoneId: a.phoneId, clientId: b.clientId, kind: 'own', dailyLimit: 0 }), "A's phone limited for B");
        expect((await phonesOfA()).map((phone) => phone.dailyLimit)).toEqual([null]);
      },
    },
    [Patterns.dispatch.phoneResume]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.phoneResume, { phoneId: a.phoneId, clientId: b.clientId, kind: 'own' }), "A's phone resumed for B"),
      own: async () => expect((await rpc(services().dispatch, Patterns.dispatch.phoneResume, { phoneId: b.phoneId, clientId: b.clientId, kind: 'own' })).status).toBe('ok'),
    },
    [Patterns.dispatch.sendingRulesGet]: {
      intrude: async () => expect((await rpc(services().dispatch, Patterns.dispatch.sendingRulesGet, { clientId: b.clientId, timeZone: 'Europe/Belgrade' })).body).toMatchObject({ stickyDays: STICKY_DAYS.b }),
    },
    [Patterns.dispatch.sendingRulesUpdate]: {
      intrude: async () => {
        expect((await rpc(services().dispatch, Patterns.dispatch.sendingRulesUpdate, { clientId: b.clientId, timeZone: 'Europe/Belgrade', stickyDays: STICKY_DAYS.b })).status).toBe('ok');
        expect((await stack.http('GET', '/smsapi/sending-rules', keyOf(a))).body).toMatchObject({ sticky_days: STICKY_DAYS.a });
      },
    },
    [Patterns.dispatch.phoneList]: {
      intrude: async () => expect(idsOf((await rpc(services().dispatch, Patterns.dispatch.phoneList, { clientId: b.clientId, kind: 'own' })).body)).not.toContain(a.phoneId),
    },
    [Patterns.dispatch.taskDailyStats]: {
      // Every task of this run was created today: B's counts are B's tasks, none of A's.
      intrude: async () => {
        const stats = await rpc(services().dispatch, Patterns.dispatch.taskDailyStats, { clientId: b.clientId, days: 2, timeZone: 'Europe/Belgrade' });
        expect(stats.status).toBe('ok');
        const counted = (stats.body as Array<{ sent: number; failed: number; pending: number }>).reduce((sum, day) => sum + day.sent + day.failed + day.pending, 0);
        expect(counted).toBe((await b.dashboard.send('GET', '/api/tasks')).body.total);
      },
    },
    [Patterns.gateway.optOutsAdd]: {
      intrude: async () => {
        expect((await rpc(services().gateway, Patterns.gateway.optOutsAdd, { clientId: b.clientId, numbers: ['+381643339903'] })).status).toBe('ok');
        expect(numbersOf((await stack.http('GET', '/smsapi/opt-outs', keyOf(a))).body.items)).not.toContain('+381643339903');
      },
    },
    [Patterns.gateway.optOutRemove]: {
      intrude: async () => expectNotFound(await rpc(services().gateway, Patterns.gateway.optOutRemove, { clientId: b.clientId, number: a.optOutNumber }), "A's opt-out removed for B"),
    },
    [Patterns.gateway.templateList]: {
      intrude: async () => expect(idsOf((await rpc(services().gateway, Patterns.gateway.templateList, { clientId: b.clientId })).body)).not.toContain(a.templateId),
    },
    [Patterns.gateway.templateSave]: {
      intrude: async () => expectNotFound(await rpc(services().gateway, Patterns.gateway.templateSave, { clientId: b.clientId, id: a.templateId, name: 'x', body: 'changed for b' }), "A's template changed for B"),
    },
    [Patterns.gateway.templateDelete]: {
      intrude: async () => expectNotFound(await rpc(services().gateway, Patterns.gateway.templateDelete, { clientId: b.clientId, id: a.templateId }), "A's template deleted for B"),
    },
    [Patterns.dispatch.optOutList]: {
      intrude: async () => expect(numbersOf((await rpc(services().dispatch, Patterns.dispatch.optOutList, { clientId: b.clientId, limit: 100 })).body as { items: unknown }, 'items')).not.toContain(a.optOutNumber),
    },
    [Patterns.dispatch.optOutAdd]: {
      intrude: async () => {
        expect((await rpc(services().dispatch, Patterns.dispatch.optOutAdd, { clientId: b.clientId, numbers: ['+381643339904'], source: 'api' })).status).toBe('ok');
        expect(numbersOf((await stack.http('GET', '/smsapi/opt-outs', keyOf(a))).body.items)).not.toContain('+381643339904');
      },
    },
    [Patterns.dispatch.optOutRemove]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.optOutRemove, { clientId: b.clientId, number: a.optOutNumber, source: 'api' }), "A's opt-out removed for B"),
    },
    [Patterns.dispatch.optOutCheck]: {
      intrude: async () => expect((await rpc(services().dispatch, Patterns.dispatch.optOutCheck, { clientId: b.clientId, numbers: [a.optOutNumber] })).body).toEqual([]),
    },
    [Patterns.dispatch.optOutSettingsGet]: {
      intrude: async () => expect((await rpc(services().dispatch, Patterns.dispatch.optOutSettingsGet, { clientId: b.clientId })).body).toMatchObject({ optOutWords: ['ODJAVAB'] }),
    },
    [Patterns.dispatch.optOutSettingsUpdate]: {
      intrude: async () => {
        expect((await rpc(services().dispatch, Patterns.dispatch.optOutSettingsUpdate, { clientId: b.clientId, optInWords: ['VRATI'] })).status).toBe('ok');
        expect((await stack.http('GET', '/smsapi/opt-out-settings', keyOf(a))).body.opt_in_words).toEqual([]);
      },
    },
    [Patterns.dispatch.conversationList]: {
      intrude: async () => expect(numbersOf((await rpc(services().dispatch, Patterns.dispatch.conversationList, { clientId: b.clientId, limit: 100 })).body as { items: unknown }, 'items')).not.toContain(a.threadNumber),
    },
    [Patterns.dispatch.conversationTasks]: {
      intrude: async () => {
        expect((await rpc(services().dispatch, Patterns.dispatch.conversationTasks, { clientId: b.clientId, number: a.threadNumber, limit: 50 })).body).toEqual([]);
        expect(idsOf((await rpc(services().dispatch, Patterns.dispatch.conversationTasks, { clientId: b.clientId, number: SMS.recipient, limit: 50 })).body)).not.toContain(a.claimedTaskId);
      },
    },
    [Patterns.dispatch.conversationRead]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.conversationRead, { clientId: b.clientId, number: a.threadNumber }), "A's conversation marked read for B"),
    },
    [Patterns.dispatch.conversationSearch]: {
      intrude: async () => expect((await rpc(services().dispatch, Patterns.dispatch.conversationSearch, { clientId: b.clientId, text: 'only of a', limit: 10 })).body).toEqual([]),
    },
    [Patterns.gateway.smppCredentialList]: {
      intrude: async () => expect(idsOf((await rpc(services().gateway, Patterns.gateway.smppCredentialList, { clientId: b.clientId })).body)).not.toContain(a.smppCredentialId),
    },
    [Patterns.gateway.smppCredentialRevoke]: {
      intrude: async () => expectNotFound(await rpc(services().gateway, Patterns.gateway.smppCredentialRevoke, { clientId: b.clientId, id: a.smppCredentialId }), "A's SMPP credentials revoked for B"),
    },
    [Patterns.gateway.phoneNumberSet]: {
      intrude: async () => expectNotFound(await rpc(services().gateway, Patterns.gateway.phoneNumberSet, { phoneId: a.phoneId, clientId: b.clientId, kind: 'own', number: '+381649990000' }), "A's phone numbered for B"),
    },
    [Patterns.dispatch.phoneSetNumber]: {
      intrude: async () => expectNotFound(await rpc(services().dispatch, Patterns.dispatch.phoneSetNumber, { phoneId: a.phoneId, clientId: b.clientId, kind: 'own', number: '+381649990000' }), "A's phone numbered for B"),
    },
    [Patterns.inbox.messagesAfter]: {
      intrude: async () => expect(idsOf((await rpc(services().inbox, Patterns.inbox.messagesAfter, { clientId: b.clientId, afterId: 0, limit: 500 })).body)).not.toContain(a.replyId),
    },
    [Patterns.inbox.messagesFrom]: {
      intrude: async () => {
        const replies = idsOf((await rpc(services().inbox, Patterns.inbox.messagesFrom, { clientId: b.clientId, from: '+381641111111', limit: 50 })).body);
        expect(replies).toContain(b.replyId);
        expect(replies).not.toContain(a.replyId);
      },
    },
    [Patterns.inbox.messagesUnread]: {
      intrude: async () => expect((await rpc(services().inbox, Patterns.inbox.messagesUnread, { clientId: b.clientId, threads: [{ from: '+381641111111', since: null }] })).body).toEqual({ '+381641111111': 1 }),
    },
    [Patterns.inbox.messagesSearchSenders]: {
      intrude: async () => expect((await rpc(services().inbox, Patterns.inbox.messagesSearchSenders, { clientId: b.clientId, text: 'reply to a', limit: 10 })).body).toEqual([]),
    },
    [Patterns.inbox.messagesList]: {
      intrude: async () => {
        const page = await rpc(services().inbox, Patterns.inbox.messagesList, { clientId: b.clientId, page: 1, pageSize: 200 });
        expect(idsOf((page.body as { items: unknown }).items)).toContain(b.replyId);
        expect(idsOf((page.body as { items: unknown }).items)).not.toContain(a.replyId);
      },
    },
  };

  /** Patterns that carry no client scope to check: internal steps between services, or admin commands (the admin CLI, and dashboard routes only admins reach). */
  const MESSAGES_WITHOUT_CLIENT_SCOPE: Record<string, string> = {
    [Patterns.gateway.clientCreate]: 'admin command',
    [Patterns.gateway.clientSetDisabled]: 'admin command (and PUT /api/admin/clients/:id/disabled, admins only)',
    [Patterns.gateway.clientShow]: 'admin command; the dashboard passes the session\'s own client id',
    [Patterns.gateway.clientGet]: 'the dashboard passes the session\'s own client id',
    [Patterns.gateway.clientSetTimezone]: 'admin command; the dashboard passes the session\'s own client id (PUT /api/settings/time-zone)',
    [Patterns.dispatch.clientTimezoneChanged]: 'internal: from the gateway, for the client whose zone it just changed',
    [Patterns.gateway.keyCreate]: 'admin command; the dashboard passes the session\'s own client id',
    [Patterns.gateway.phoneRegister]: 'admin command; POST /smsapi/register-phone is the client\'s path (case above)',
    [Patterns.gateway.workerTokenCreate]: 'admin command',
    [Patterns.gateway.workerTokenRevoke]: 'admin command',
    [Patterns.gateway.clientList]: 'admin command',
    [Patterns.gateway.workerTokenList]: 'admin command',
    [Patterns.billing.accountOpen]: 'internal: the gateway opens the account of a client it just created',
    [Patterns.gateway.smppCredentialCreate]: 'the client id is the subject; the API and the dashboard pass the caller\'s own',
    [Patterns.gateway.smppCredentialAuthenticate]: 'internal: the SMPP service checks a bind\'s system_id and password; the answer names the client',
    [Patterns.gateway.smppCredentialActive]: 'internal: by the credential ids the SMPP service holds binds of',
    [Patterns.smpp.taskEnded]: 'internal: from dispatch\'s outbox, for the client of the task that ended',
    [Patterns.billing.accountShow]: 'the client id is the subject; the dashboard passes the session\'s own',
    [Patterns.billing.accountsShow]: 'admin only (GET /api/admin/clients lists every client)',
    [Patterns.billing.debit]: 'internal: dispatch debits for a task it is creating for that client',
    [Patterns.billing.debitBatch]: 'internal: dispatch debits, each for the client of a task it is creating',
    [Patterns.billing.refund]: 'internal: by task key, from dispatch',
    [Patterns.billing.creditsGrant]: 'admin command',
    [Patterns.billing.planSet]: 'admin command',
    [Patterns.dispatch.taskCreate]: 'internal: the gateway passes the authenticated client; requestedPhoneId is the create-task case above',
    [Patterns.dispatch.taskCreateBatch]: 'internal: the gateway passes each create with its authenticated client; requestedPhoneId is the create-task case above',
    [Patterns.dispatch.taskSettle]: 'internal: by task key, from the gateway and billing',
    [Patterns.dispatch.taskSettleBatch]: 'internal: billing’s settlement sweep asks about the keys of charges it holds; the answer goes to billing only',
    [Patterns.dispatch.phoneRegister]: 'internal: from the gateway for the authenticated client',
    [Patterns.dispatch.phoneGet]: 'internal: the gateway checks a worker token\'s phone',
    [Patterns.dispatch.gatewayCreate]: 'admin command',
    [Patterns.dispatch.taskClaim]: 'internal: the token comes from the authenticated worker; GET /smsapi/pending-tasks case above',
    [Patterns.dispatch.taskClaimBatch]: 'internal: the token comes from the authenticated worker; GET /smsapi/pending-tasks?limit= in batched-delivery.e2e.spec.ts',
    [Patterns.dispatch.replyOwner]: 'internal: finds the owner of a reply for the gateway',
    [Patterns.dispatch.phoneHealthReport]: 'internal: the phone comes from the authenticated worker token; POST /smsapi/phone-health case above',
    [Patterns.dispatch.systemStats]: 'admin only (GET /api/admin/system)',
    [Patterns.dashboard.adminCreate]: 'admin command',
    [Patterns.inbox.messagesStore]: 'internal: the gateway stores replies under the owner dispatch named',
    [Patterns.dispatch.webhookReplyReceived]: 'internal: inbox relays a reply it stored, under the client it was stored for, to that client\'s own endpoints',
  };

  it('has an isolation case, or a reason there is none, for every route the running apps mapped and every message pattern', () => {
    const routes = [...mappedRoutes(stack.logsOf('api-gateway')), ...mappedRoutes(stack.logsOf('dashboard'))].filter((route) => / \/(smsapi|api)\//.test(route));
    expect(routes.length, 'routes found in the start-up logs').toBeGreaterThan(20);
    const classifiedRoutes = new Set([...Object.keys(HTTP_CASES), ...Object.keys(HTTP_WITHOUT_OWNED_ID)]);
    expect(routes.filter((route) => !classifiedRoutes.has(route)), 'routes with no isolation case').toEqual([]);
    expect([...classifiedRoutes].filter((route) => !routes.includes(route)), 'cases for routes that do not exist').toEqual([]);

    const classifiedPatterns = new Set([...Object.keys(MESSAGE_CASES), ...Object.keys(MESSAGES_WITHOUT_CLIENT_SCOPE)]);
    expect(allPatterns().filter((pattern) => !classifiedPatterns.has(pattern)), 'message patterns with no isolation case').toEqual([]);
    expect([...classifiedPatterns].filter((pattern) => !allPatterns().includes(pattern)), 'cases for patterns that do not exist').toEqual([]);
  });

  it.each(Object.keys(HTTP_CASES))('%s: client B cannot reach client A\'s', async (route) => {
    await HTTP_CASES[route]!.intrude();
    await HTTP_CASES[route]!.own?.();
  });

  it.each(Object.keys(MESSAGE_CASES))('%s: client B\'s id does not reach client A\'s', async (pattern) => {
    await MESSAGE_CASES[pattern]!.intrude();
    await MESSAGE_CASES[pattern]!.own?.();
  });

  it('connects every service to Postgres as its own role, never as the superuser', async () => {
    const database = new URL(stack.env['DATABASE_URL']!).pathname.slice(1);
    const client = new pg.Client({ connectionString: stack.env['DATABASE_URL'] });
    await client.connect();
    try {
      const { rows } = await client.query<{ application_name: string; usename: string }>(
        "SELECT DISTINCT application_name, usename FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'smsq-%' ORDER BY application_name",
        [database],
      );
      expect(rows).toEqual([
        { application_name: 'smsq-billing', usename: 'smsq_billing' },
        { application_name: 'smsq-dashboard', usename: 'smsq_dashboard' },
        { application_name: 'smsq-dispatch', usename: 'smsq_dispatch' },
        { application_name: 'smsq-gateway', usename: 'smsq_gateway' },
        { application_name: 'smsq-inbox', usename: 'smsq_inbox' },
      ]);
    } finally {
      await client.end();
    }
  });
});

describe('tenant isolation, Profile B: pooled gateways', () => {
  let stack: Stack;
  let dashboardUrl: string;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'B' });
    dashboardUrl = await stack.startDashboard();
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("keeps a client's own gateway, its tasks and their reports to that client", async () => {
    const a = await stack.newClient();
    const b = await stack.newClient();
    const vipOfA = (await stack.adminOk('gateway', 'create', '--name', 'vip of a', '--url', 'http://10.9.9.9:8080', '--client', String(a.clientId))).phone_id as number;
    const shared = (await stack.adminOk('gateway', 'create', '--name', 'shared', '--url', 'http://10.9.9.8:8080')).phone_id as number;
    const { worker_token: vipToken } = await stack.adminOk('worker-token', 'create', '--phone', String(vipOfA));
    const { worker_token: sharedToken } = await stack.adminOk('worker-token', 'create', '--phone', String(shared));

    const ofA = await stack.createTask(a.apiKey, SMS);
    expect(ofA.body.phone_id).toBe(vipOfA);
    expect((await workerApi(stack, vipToken).poll()).body.id).toBe(ofA.body.id);
    // B names A's gateway: ignored as if omitted, so the task goes to the shared pool.
    const ofB = await stack.createTask(b.apiKey, { ...SMS, phone_id: vipOfA });
    expect(ofB.status).toBe(201);
    expect(ofB.body.phone_id).toBe(shared);

    expectNotFound(await stack.http('GET', `/smsapi/tasks/${ofA.body.id}`, { headers: { 'x-api-key': b.apiKey } }), "A's task with B's key");
    expectNotFound(await workerApi(stack, sharedToken).report(ofA.body.id, 'failed', 'not my claim'), "A's task reported by another gateway's token");
    expectNotFound(await workerApi(stack, sharedToken).report(ofA.body.id, 'delivered'), "A's task reported delivered by another gateway's token");
    expect((await stack.http('GET', `/smsapi/tasks/${ofA.body.id}`, { headers: { 'x-api-key': a.apiKey } })).body.status).toBe('claimed');
    expect((await workerApi(stack, vipToken).report(ofA.body.id, 'sent')).status).toBe(200);
  });

  it("answers 404 to a client that touches a gateway from the admin's routes, and leaves the gateway as it was", async () => {
    const gateway = (await stack.adminOk('gateway', 'create', '--name', 'admin only', '--url', 'http://10.9.9.7:8080')).phone_id as number;
    const client = new DashboardBrowser(dashboardUrl, () => undefined);
    expect((await client.send('POST', '/api/auth/signup', { email: `b-${randomBytes(4).toString('hex')}@example.com`, password: PASSWORD })).status).toBe(201);
    const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.com`;
    await stack.adminOk('admin', 'create', '--email', adminEmail, '--password', PASSWORD);
    const admin = new DashboardBrowser(dashboardUrl, () => undefined);
    expect((await admin.send('POST', '/api/auth/signin', { email: adminEmail, password: PASSWORD })).status).toBe(200);

    expectNotFound(await client.send('PATCH', `/api/admin/gateways/${gateway}`, { active: false }), 'a gateway disabled by a client');
    expectNotFound(await client.send('GET', '/api/admin/gateways'), 'the gateway list read by a client');
    const listed = await admin.send('GET', '/api/admin/gateways');
    expect(listed.status).toBe(200);
    expect((listed.body as Array<{ id: number; active: boolean }>).find((row) => row.id === gateway)?.active).toBe(true);
  });
});
