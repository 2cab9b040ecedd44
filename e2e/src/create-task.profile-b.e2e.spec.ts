import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.js';

const SMS = { recipient: '+381641234567', message: 'Hello from the pool' };

describe('POST /smsapi/create-task, Profile B', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'B', oneProcess: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function gateway(name: string, clientId?: number): Promise<number> {
    const flags = ['--name', name, '--url', `http://127.0.0.1:9/${name}`];
    if (clientId !== undefined) flags.push('--client', String(clientId));
    return (await stack.adminOk('gateway', 'create', ...flags)).phone_id;
  }

  it('answers 503 no_active_gateway while no gateway exists, after the body check and before credits', async () => {
    const client = await stack.newClient();
    expect((await stack.createTask(client.apiKey, { recipient: 'x', message: 'y' })).body.error).toBe('invalid_recipient');
    const answer = await stack.createTask(client.apiKey, SMS);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('no_active_gateway');
    expect(await stack.credits(client.clientId)).toBe(10);
  });

  describe('with gateways', () => {
    let shared: number[];

    beforeAll(async () => {
      shared = [await gateway('shared-1'), await gateway('shared-2'), await gateway('shared-3')];
    });

    it('answers 201 without `charged`, starting from 10 persistent credits, then 402 insufficient_credits', async () => {
      const client = await stack.newClient();
      const first = await stack.createTask(client.apiKey, SMS);
      expect(first.status).toBe(201);
      expect(Object.keys(first.body)).toEqual(['ok', 'id', 'status', 'phone_id', 'client_id', 'scheduled_at', 'credits_remaining']);
      expect(first.body).toMatchObject({ ok: true, status: 'pending', client_id: client.clientId, credits_remaining: 9 });
      for (let sent = 1; sent < 10; sent++) expect((await stack.createTask(client.apiKey, SMS)).status).toBe(201);
      const refused = await stack.createTask(client.apiKey, SMS);
      expect(refused.status).toBe(402);
      expect(refused.body.error).toBe('insufficient_credits');
      await stack.adminOk('credits', 'grant', '--client', String(client.clientId), '--amount', '1');
      expect((await stack.createTask(client.apiKey, SMS)).body.credits_remaining).toBe(0);
    });

    it('spreads tasks over the shared pool, least recently used first', async () => {
      const client = await stack.newClient();
      const used: number[] = [];
      for (let sent = 0; sent < 6; sent++) used.push((await stack.createTask(client.apiKey, SMS)).body.phone_id);
      expect(new Set(used.slice(0, 3))).toEqual(new Set(shared));
      expect(used.slice(3)).toEqual(used.slice(0, 3));
    });

    it("prefers the client's VIP pool, honours phone_id only for its own VIP gateway", async () => {
      const vipClient = await stack.newClient();
      const otherClient = await stack.newClient();
      const vipA = await gateway('vip-a', vipClient.clientId);
      const vipB = await gateway('vip-b', vipClient.clientId);
      const foreignVip = await gateway('vip-other', otherClient.clientId);

      const pooled = [];
      for (let sent = 0; sent < 4; sent++) pooled.push((await stack.createTask(vipClient.apiKey, SMS)).body.phone_id);
      expect(new Set(pooled)).toEqual(new Set([vipA, vipB]));

      expect((await stack.createTask(vipClient.apiKey, { ...SMS, phone_id: vipB })).body.phone_id).toBe(vipB);
      for (const phone_id of [foreignVip, shared[0], 'x', 424242]) {
        expect([vipA, vipB], JSON.stringify(phone_id)).toContain((await stack.createTask(vipClient.apiKey, { ...SMS, phone_id })).body.phone_id);
      }
      expect(shared).not.toContain(foreignVip);
      // The other client's VIP gateway serves that client only.
      expect((await stack.createTask(otherClient.apiKey, SMS)).body.phone_id).toBe(foreignVip);
    });

    it('falls back to the shared pool when the VIP gateways are disabled', async () => {
      const client = await stack.newClient();
      const vip = await gateway('vip-disabled', client.clientId);
      await stack.adminOk('gateway', 'disable', '--phone', String(vip));
      expect(shared).toContain((await stack.createTask(client.apiKey, SMS)).body.phone_id);
      await stack.adminOk('gateway', 'enable', '--phone', String(vip));
      expect((await stack.createTask(client.apiKey, SMS)).body.phone_id).toBe(vip);
    });

    it('needs a country code when no default region is set, even for 06 numbers', async () => {
      const client = await stack.newClient();
      for (const recipient of ['0641234567', '641234567']) {
        const answer = await stack.createTask(client.apiKey, { ...SMS, recipient });
        expect(answer.status).toBe(400);
        expect(answer.body.error).toBe('invalid_recipient');
      }
    });

    it('keeps phone disable away from gateways', async () => {
      const result = await stack.admin('phone', 'disable', '--phone', String(shared[0]));
      expect(result.exitCode).not.toBe(0);
      expect(result.output.error).toBe('not_found');
    });
  });
});

describe('Profile B with SMSQ_DEFAULT_REGION', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'B', oneProcess: true, env: { SMSQ_DEFAULT_REGION: 'DE' } });
    await stack.adminOk('gateway', 'create', '--name', 'g', '--url', 'http://127.0.0.1:9');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('reads a number without country code in that region', async () => {
    const client = await stack.newClient();
    const created = await stack.createTask(client.apiKey, { recipient: '0151 23456789', message: 'Hallo' });
    expect(created.status).toBe(201);
    const read = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
    expect(read.body.recipient).toBe('+4915123456789');
  });
});
