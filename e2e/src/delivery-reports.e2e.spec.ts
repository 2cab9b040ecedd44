import { Patterns, type PhoneDetails } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, type HttpAnswer } from './support/stack.js';
import { sharedStack } from './support/shared-stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

/**
 * Issue 10: what real phones report beyond sent and failed. A `delivered` report (the carrier's
 * delivery report) leaves the task `sent` with `delivered_at`; the task view counts the SMS the
 * message costs (`segments`); `POST /smsapi/phone-health` records battery, charging and connection
 * on the token's phone or gateway, shown with its last poll in the phone list the dashboard reads.
 */

const RECIPIENT = '+381641234567';
const LONG_GSM = 'Lorem ipsum dolor sit amet. '.repeat(15).slice(0, 400);
const SHORT_CYRILLIC = 'Здраво, ваш код је 4821';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function taskOf(stack: Stack, apiKey: string, id: number): Promise<HttpAnswer> {
  return stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': apiKey } });
}

async function phonesListed(stack: Stack, query: { clientId?: number; kind?: 'own' | 'gateway' }): Promise<PhoneDetails[]> {
  return stack.serviceClients().dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, query);
}

function expectInvalid(answer: HttpAnswer, error = 'invalid_request'): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { error, detail: expect.any(String) } });
}

describe('delivery reports, segments and phone health, Profile A', () => {
  let stack: Stack;

  beforeAll(() => {
    stack = sharedStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** A client whose phone registered through the API, as the gateway app does. */
  async function pairedClient() {
    const client = await stack.newClient({ plan: 'starter', phone: false });
    const registered = await registerPhone(stack, client.apiKey, { name: 'Pixel', device_id: `device-${client.clientId}` });
    expect(registered.status).toBe(201);
    return { ...client, phoneId: registered.body.phone_id as number, token: registered.body.worker_token as string, api: workerApi(stack, registered.body.worker_token) };
  }

  /** Queues one SMS and claims it with the phone's token. */
  async function claimed(client: Awaited<ReturnType<typeof pairedClient>>, message = 'deliver me'): Promise<number> {
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message });
    expect(created.status).toBe(201);
    const polled = await client.api.poll();
    expect(polled.body.id).toBe(created.body.id);
    return created.body.id;
  }

  describe('POST /smsapi/task-status with "delivered"', () => {
    it('sends a claimed task and records its delivery; the view shows both times and 3 segments for 400 GSM characters', async () => {
      const client = await pairedClient();
      const id = await claimed(client, LONG_GSM);

      const reported = await client.api.report(id, 'delivered');

      expect(reported).toMatchObject({ status: 200, body: { ok: true, id, status: 'sent' } });
      const read = await taskOf(stack, client.apiKey, id);
      expect(read.status).toBe(200);
      expect(Object.keys(read.body)).toEqual(['id', 'status', 'phone_id', 'first_phone_id', 'client_id', 'scheduled_at', 'recipient', 'message', 'encrypted', 'attempts', 'sent_at', 'delivered_at', 'failed_at', 'error', 'expires_at', 'segments', 'priority', 'rerouted_because']);
      expect(read.body).toMatchObject({ status: 'sent', message: LONG_GSM, attempts: 1, failed_at: null, error: null, segments: 3 });
      expect(read.body.sent_at).toMatch(ISO_INSTANT);
      expect(read.body.delivered_at).toMatch(ISO_INSTANT);
      expect(Date.parse(read.body.delivered_at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('adds the delivery to a task reported sent before; repeats and a late sent are harmless and move nothing', async () => {
      const client = await pairedClient();
      const id = await claimed(client, SHORT_CYRILLIC);
      expect((await client.api.report(id, 'sent')).status).toBe(200);
      const sent = (await taskOf(stack, client.apiKey, id)).body;
      expect(sent).toMatchObject({ status: 'sent', delivered_at: null, segments: 1 });

      expect(await client.api.report(id, 'delivered')).toMatchObject({ status: 200, body: { ok: true, id, status: 'sent' } });
      const delivered = (await taskOf(stack, client.apiKey, id)).body;
      expect(delivered).toMatchObject({ status: 'sent', sent_at: sent.sent_at, delivered_at: expect.stringMatching(ISO_INSTANT) });
      expect(Date.parse(delivered.delivered_at)).toBeGreaterThanOrEqual(Date.parse(sent.sent_at));

      expect(await client.api.report(id, 'delivered')).toMatchObject({ status: 200, body: { ok: true, id, status: 'sent' } });
      expect(await client.api.report(id, 'sent')).toMatchObject({ status: 200, body: { ok: true, id, status: 'sent' } });
      expect((await taskOf(stack, client.apiKey, id)).body).toMatchObject({ sent_at: sent.sent_at, delivered_at: delivered.delivered_at });
    });

    it('counts a long Cyrillic message in UCS-2 parts', async () => {
      const client = await pairedClient();
      const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'ж'.repeat(135) });
      expect((await taskOf(stack, client.apiKey, created.body.id)).body).toMatchObject({ status: 'pending', delivered_at: null, segments: 3 });
    });

    it('is 409 conflict on a failed task, whose refund stands; and a failure after a delivery is 409 too', async () => {
      const client = await pairedClient();
      const failed = await claimed(client);
      const charged = await stack.credits(client.clientId);
      expect((await client.api.report(failed, 'failed', 'no signal')).status).toBe(200);
      // The refund travels through dispatch's outbox: wait until it has landed.
      const credits = charged + 1;
      await eventually(async () => expect(await stack.credits(client.clientId)).toBe(credits));

      const answer = await client.api.report(failed, 'delivered');

      expect({ status: answer.status, body: answer.body }).toEqual({ status: 409, body: { error: 'conflict', detail: expect.any(String) } });
      expect((await taskOf(stack, client.apiKey, failed)).body).toMatchObject({ status: 'failed', sent_at: null, delivered_at: null });
      expect(await stack.credits(client.clientId)).toBe(credits);

      const delivered = await claimed(client);
      expect((await client.api.report(delivered, 'delivered')).status).toBe(200);
      expect((await client.api.report(delivered, 'failed', 'too late')).status).toBe(409);
      expect((await taskOf(stack, client.apiKey, delivered)).body.status).toBe('sent');
    });

    it("is 404 from a token that does not hold the task, before and after it was sent, and changes nothing", async () => {
      const owner = await pairedClient();
      const intruder = await pairedClient();
      const id = await claimed(owner);

      expect((await intruder.api.report(id, 'delivered')).status).toBe(404);
      expect((await taskOf(stack, owner.apiKey, id)).body).toMatchObject({ status: 'claimed', delivered_at: null });
      expect((await owner.api.report(id, 'sent')).status).toBe(200);
      const notFound = await intruder.api.report(id, 'delivered');
      expect({ status: notFound.status, body: notFound.body }).toEqual({ status: 404, body: { error: 'not_found', detail: expect.any(String) } });
      expect((await taskOf(stack, owner.apiKey, id)).body.delivered_at).toBeNull();
    });

    it('refuses other statuses as 400 invalid_request', async () => {
      const client = await pairedClient();
      const id = await claimed(client);
      for (const status of ['DELIVERED', 'read', 'pending']) expectInvalid(await client.api.report(id, status));
      expect((await taskOf(stack, client.apiKey, id)).body.status).toBe('claimed');
    });
  });

  describe('POST /smsapi/phone-health', () => {
    it("records the phone's health and shows it, with its last poll, in the client's phone list", async () => {
      const client = await pairedClient();
      const before = Date.now() - 1_000;
      expect(await phonesListed(stack, { clientId: client.clientId })).toEqual([expect.objectContaining({ id: client.phoneId, lastSeenAt: null, health: null })]);

      const answer = await client.api.health({ battery_percent: 57, charging: true, connection: 'wifi', signal_dbm: -70 });
      expect((await client.api.poll()).status).toBe(200);

      expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { ok: true } });
      const [phone] = await phonesListed(stack, { clientId: client.clientId });
      expect(phone).toMatchObject({ id: client.phoneId, health: { batteryPercent: 57, charging: true, connection: 'wifi' } });
      expect(Date.parse(phone!.health!.reportedAt)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(phone!.lastSeenAt!)).toBeGreaterThanOrEqual(before);

      expect((await client.api.health({ connection: 'LTE' })).status).toBe(200);
      const [later] = await phonesListed(stack, { clientId: client.clientId });
      expect(later!.health).toMatchObject({ batteryPercent: null, charging: null, connection: 'LTE' });
    });

    it('refuses bodies that report nothing or report it wrongly with 400, and stores nothing', async () => {
      const client = await pairedClient();
      const bodies: unknown[] = [
        {},
        { signal_dbm: -70 },
        { battery_percent: 101 },
        { battery_percent: -1 },
        { battery_percent: 33.3 },
        { battery_percent: '50' },
        { charging: 'yes' },
        { connection: '' },
        { connection: 'x'.repeat(41) },
        { connection: 'wi\nfi' },
        { connection: 42 },
        [],
        'wifi',
      ];
      for (const body of bodies) expectInvalid(await client.api.health(body));
      expectInvalid(await stack.http('POST', '/smsapi/phone-health', { headers: { 'x-worker-token': client.token }, rawBody: '{"charging": tru' }), 'invalid_json');
      expect((await phonesListed(stack, { clientId: client.clientId }))[0]!.health).toBeNull();
    });

    it('needs a worker token: none, an unknown or revoked one, or an API key is 401; another method is 405', async () => {
      const client = await pairedClient();
      const body = { battery_percent: 10 };
      const credentials: Record<string, string>[] = [{}, { 'x-worker-token': 'smsq_wkr_nope' }, { 'x-api-key': client.apiKey }, { 'x-worker-token': client.token, 'x-api-key': client.apiKey }];
      for (const headers of credentials) {
        const answer = await stack.http('POST', '/smsapi/phone-health', { headers, body });
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: { error: 'unauthorized', detail: expect.any(String) } });
      }
      const again = await registerPhone(stack, client.apiKey, { name: 'Pixel', device_id: `device-${client.clientId}` });
      expect((await client.api.health(body)).status).toBe(401);
      expect((await workerApi(stack, again.body.worker_token).health(body)).status).toBe(200);

      const wrongMethod = await stack.http('GET', '/smsapi/phone-health', { headers: { 'x-worker-token': again.body.worker_token } });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body.error).toBe('method_not_allowed');
    });

    it('still records the health of a disabled phone, whose polls are refused', async () => {
      const client = await pairedClient();
      await stack.adminOk('phone', 'disable', '--phone', String(client.phoneId));

      expect((await client.api.poll()).status).toBe(403);
      expect((await client.api.health({ battery_percent: 3, charging: false })).status).toBe(200);
      expect((await phonesListed(stack, { clientId: client.clientId }))[0]).toMatchObject({ active: false, health: { batteryPercent: 3, charging: false, connection: null } });
    });
  });
});

describe('delivery reports and gateway health, Profile B', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'B', oneProcess: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("takes a bound gateway token's delivery report, and 404s another gateway's", async () => {
    const client = await stack.newClient();
    const vip = (await stack.adminOk('gateway', 'create', '--name', 'vip', '--url', 'http://10.9.9.9:8080', '--client', String(client.clientId))).phone_id as number;
    const other = (await stack.adminOk('gateway', 'create', '--name', 'other', '--url', 'http://10.9.9.8:8080')).phone_id as number;
    const { worker_token: vipToken } = await stack.adminOk('worker-token', 'create', '--phone', String(vip));
    const { worker_token: otherToken } = await stack.adminOk('worker-token', 'create', '--phone', String(other));
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: LONG_GSM });
    expect((await workerApi(stack, vipToken).poll()).body.id).toBe(created.body.id);

    expect((await workerApi(stack, otherToken).report(created.body.id, 'delivered')).status).toBe(404);
    expect(await workerApi(stack, vipToken).report(created.body.id, 'delivered')).toMatchObject({ status: 200, body: { ok: true, id: created.body.id, status: 'sent' } });
    const read = await taskOf(stack, client.apiKey, created.body.id);
    expect(read.body).toMatchObject({ status: 'sent', sent_at: expect.stringMatching(ISO_INSTANT), delivered_at: expect.stringMatching(ISO_INSTANT), segments: 3 });
  });

  it("records a bound token's health on its gateway, and takes an unbound token's without storing it", async () => {
    const gateway = (await stack.adminOk('gateway', 'create', '--name', 'healthy', '--url', 'http://10.9.9.7:8080')).phone_id as number;
    const { worker_token: bound } = await stack.adminOk('worker-token', 'create', '--phone', String(gateway));
    const { worker_token: unbound } = await stack.adminOk('worker-token', 'create');
    const gatewayRow = async () => (await phonesListed(stack, { kind: 'gateway' })).find((row) => row.id === gateway)!;

    expect(await workerApi(stack, unbound).health({ battery_percent: 1 })).toMatchObject({ status: 200, body: { ok: true } });
    expect((await phonesListed(stack, { kind: 'gateway' })).every((row) => row.health === null)).toBe(true);

    expect(await workerApi(stack, bound).health({ charging: true, connection: 'ethernet' })).toMatchObject({ status: 200, body: { ok: true } });
    expect((await workerApi(stack, bound).poll()).status).toBe(200);
    expect(await gatewayRow()).toMatchObject({ health: { batteryPercent: null, charging: true, connection: 'ethernet' }, lastSeenAt: expect.stringMatching(ISO_INSTANT) });

    expectInvalid(await workerApi(stack, unbound).health({ battery_percent: 'full' }));
    expect((await stack.http('POST', '/smsapi/phone-health', { body: { charging: true } })).status).toBe(401);
  });
});
