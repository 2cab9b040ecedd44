import { Patterns, type InboxPage } from '@smsq/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'pooled' };

describe('the delivery path, Profile B', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'B', oneProcess: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 503 no_active_gateway to a worker while no gateway is active', async () => {
    const { worker_token } = await stack.adminOk('worker-token', 'create');
    const answer = await workerApi(stack, worker_token).poll();
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('no_active_gateway');
  });

  it("has no register-phone (404) and gives a bound token only its gateway's tasks with the gateway URL", async () => {
    const client = await stack.newClient();
    expect((await registerPhone(stack, client.apiKey, { name: 'x' })).status).toBe(404);
    expect((await registerPhone(stack, client.apiKey, {})).status).toBe(404);
    const vip = (await stack.adminOk('gateway', 'create', '--name', 'vip', '--url', 'http://10.9.9.9:8080', '--client', String(client.clientId))).phone_id;
    const otherGateway = (await stack.adminOk('gateway', 'create', '--name', 'elsewhere', '--url', 'http://10.9.9.8:8080')).phone_id;
    const { worker_token: bound } = await stack.adminOk('worker-token', 'create', '--phone', String(vip));
    const { worker_token: elsewhere } = await stack.adminOk('worker-token', 'create', '--phone', String(otherGateway));
    const created = await stack.createTask(client.apiKey, SMS);
    expect(created.body.phone_id).toBe(vip);
    expect((await workerApi(stack, elsewhere).poll()).body).toEqual({});
    const claimed = await workerApi(stack, bound).poll();
    expect(claimed.body).toMatchObject({ id: created.body.id, phone_id: vip, gateway_url: 'http://10.9.9.9:8080', attempt: 1 });
    await stack.adminOk('gateway', 'disable', '--phone', String(vip));
    expect((await workerApi(stack, bound).poll()).body.error).toBe('phone_disabled');
  });

  it('lets an unbound token claim any due task, and gives a reply to the client whose task last went to that number', async () => {
    const sender = await stack.newClient();
    const bystander = await stack.newClient();
    const shared = (await stack.adminOk('gateway', 'create', '--name', 'shared', '--url', 'http://10.9.9.7:8080')).phone_id;
    const { worker_token: unbound } = await stack.adminOk('worker-token', 'create');
    const { worker_token: gatewayToken } = await stack.adminOk('worker-token', 'create', '--phone', String(shared));
    await stack.createTask(bystander.apiKey, { ...SMS, recipient: '+381601112223' });
    const created = await stack.createTask(sender.apiKey, { ...SMS, recipient: '+381601112222' });
    const api = workerApi(stack, unbound);
    const ids = [(await api.poll()).body.id, (await api.poll()).body.id];
    expect(ids).toContain(created.body.id);

    const stored = await workerApi(stack, gatewayToken).inbound({ from: '+381601112222', message: 'reply to the sender', external_id: 'r1' });
    expect(stored.body).toMatchObject({ stored: 1, duplicates: 0 });
    const page = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: sender.clientId, page: 1, pageSize: 10 });
    expect(page.items.map((item) => item.message)).toEqual(['reply to the sender']);
    const theirs = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: bystander.clientId, page: 1, pageSize: 10 });
    expect(theirs.total).toBe(0);
  });
});
