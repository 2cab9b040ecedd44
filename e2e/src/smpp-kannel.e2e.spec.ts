import { Patterns, type SmppCredentialCreated } from '@smsq/contracts';
import { eventually, freePort } from '@smsq/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KANNEL_DLR, KannelGateway } from './support/kannel.js';
import { smsgateSimEnv, smsgateWorkerEnv } from './support/smsgate-phone.js';
import { Stack } from './support/stack.js';
import { registerPhone } from './support/worker-api.js';

/**
 * SMPP as its users meet it: Kannel (bearerbox and smsbox, Debian's package) bound to smsq as an
 * ESME, sending through its sendsms HTTP interface. A message reaches an SMS Gateway for Android
 * stand-in through the bundled worker, its delivery report comes back to Kannel's dlr-url, a reply
 * from the phone arrives in Kannel as MO; UCS-2 and a 400-character message arrive whole.
 */

const RECIPIENT = '+381641234567';

describe('SMPP with Kannel', () => {
  let stack: Stack;
  let kannel: KannelGateway;
  let simUrl: string;
  let clientId: number;
  let apiKey: string;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A' });
    const smppPort = await stack.startSmpp();
    simUrl = `http://127.0.0.1:${await freePort()}`;
    stack.launch('gateway-sim', smsgateSimEnv({ GATEWAY_SIM_PORT: new URL(simUrl).port }));
    await eventually(async () => expect((await fetch(`${simUrl}/healthz`)).ok).toBe(true), { timeoutMs: 30_000 });

    const client = await stack.newClient({ phone: false });
    clientId = client.clientId;
    apiKey = client.apiKey;
    await stack.adminOk('credits', 'grant', '--client', String(clientId), '--amount', '20');
    const phone = await registerPhone(stack, apiKey, { name: 'pixel', device_id: 'kannel-pixel', url: simUrl });
    expect(phone.status).toBe(201);
    stack.startWorker(phone.body.worker_token, { ...(await smsgateWorkerEnv(mkdtempSync(join(tmpdir(), 'smsq-kannel-worker-')))), WORKER_DRIVER: 'smsgate', SMSGATE_URL: simUrl });

    const credential = await stack.serviceClients().gateway.send<SmppCredentialCreated>(Patterns.gateway.smppCredentialCreate, { clientId });
    kannel = await KannelGateway.start({ smpp: { port: smppPort, systemId: credential.systemId, password: credential.password }, defaultSender: 'smsq-e2e' });
  });

  afterAll(async () => {
    await kannel?.stop();
    await stack?.stop();
  });

  const sentByPhone = async (): Promise<Array<{ text: string; phoneNumbers: string[] }>> => (await fetch(`${simUrl}/sim/sends`)).json() as Promise<Array<{ text: string; phoneNumbers: string[] }>>;

  it('sends a message through Kannel to the phone, and its delivery report reaches the dlr-url', async () => {
    const sent = await kannel.sendSms({ to: RECIPIENT, text: 'Hello from Kannel [1] €5', dlrMask: KANNEL_DLR.delivered + KANNEL_DLR.undelivered });
    expect(sent.status).toBe(202);
    await eventually(async () => expect((await sentByPhone()).filter((sms) => sms.text === 'Hello from Kannel [1] €5')).toEqual([expect.objectContaining({ phoneNumbers: [RECIPIENT] })]), { timeoutMs: 30_000 });
    await eventually(async () => expect(kannel.reportsOf(sent.ref).map((report) => report.type)).toContain(KANNEL_DLR.delivered), { timeoutMs: 30_000 });
    const [report] = kannel.reportsOf(sent.ref).filter((candidate) => candidate.type === KANNEL_DLR.delivered);
    expect(report!.answer).toContain('stat:DELIVRD');
    const task = await stack.http('GET', `/smsapi/tasks/${report!.messageId}`, { headers: { 'x-api-key': apiKey } });
    expect(task.body).toMatchObject({ status: 'sent', message: 'Hello from Kannel [1] €5', recipient: RECIPIENT, delivered_at: expect.any(String) });
  });

  it('carries a UCS-2 message and a 400-character message whole, one task each', async () => {
    const cyrillic = 'Здраво! Ваш термин је сутра у 9:30 🙂';
    const long = 'The quick brown fox jumps over the lazy dog. '.repeat(9).slice(0, 400);
    const unicode = await kannel.sendSms({ to: RECIPIENT, text: cyrillic, coding: 2, dlrMask: KANNEL_DLR.delivered });
    const split = await kannel.sendSms({ to: RECIPIENT, text: long, dlrMask: KANNEL_DLR.delivered });
    expect([unicode.status, split.status]).toEqual([202, 202]);
    await eventually(
      async () => {
        const texts = (await sentByPhone()).map((sms) => sms.text);
        expect(texts.filter((text) => text === cyrillic)).toHaveLength(1);
        expect(texts.filter((text) => text === long)).toHaveLength(1);
      },
      { timeoutMs: 30_000 },
    );
    // Kannel asked a receipt on the long message's first part only: the whole task's report still comes back.
    await eventually(async () => expect(kannel.reportsOf(split.ref).map((report) => report.type)).toContain(KANNEL_DLR.delivered), { timeoutMs: 30_000 });
    await eventually(async () => expect(kannel.reportsOf(unicode.ref).map((report) => report.type)).toContain(KANNEL_DLR.delivered), { timeoutMs: 30_000 });
  });

  it('passes a reply from the phone to Kannel as MO', async () => {
    const answer = await fetch(`${simUrl}/sim/incoming`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: RECIPIENT, message: 'Hvala, stiže ✓' }) });
    expect(answer.status).toBe(201);
    await eventually(async () => expect(kannel.received.filter((sms) => sms.text === 'Hvala, stiže ✓')).toEqual([expect.objectContaining({ from: RECIPIENT })]), { timeoutMs: 30_000 });
  });
});
