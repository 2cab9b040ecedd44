import { Patterns, type SmppCredentialCreated } from '@smsq/contracts';
import { eventually, freePort } from '@smsq/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmppTestClient, type SmppPdu } from './support/smpp-client.js';
import { Stack } from './support/stack.js';
import { clientWithPairedPhone } from './support/worker-api.js';

/**
 * smsq as an SMSC, spoken to by an SMPP client it did not write (the `smpp` package): binds and
 * their refusals, submit_sm as create-task, each data coding and each way of splitting a long
 * message, receipts kept for a receiver that binds later, replies as deliver_sm, query_sm and
 * cancel_sm, a silent peer, broken PDUs, revocation, throttling, and a second replica.
 * Kannel's own run is in smpp-kannel.e2e.spec.ts.
 */

const RECIPIENT = '381641234567';
const ESME_ROK = 0;
const ESME_RINVCMDID = 0x03;
const ESME_RINVBNDSTS = 0x04;
const ESME_RINVPASWD = 0x0e;
const ESME_RINVSYSID = 0x0f;
const ESME_RBINDFAIL = 0x0d;
const ESME_RINVMSGID = 0x0c;
const ESME_RCANCELFAIL = 0x11;
const ESME_RINVSRCADR = 0x0a;
const ESME_RTHROTTLED = 0x58;
const ESME_RSUBMITFAIL = 0x45;
const ESME_RINVCMDLEN = 0x02;
const SMSQ_NO_CREDITS = 0x0401;
const SMSQ_OPTED_OUT = 0x0402;

describe('SMPP', () => {
  let stack: Stack;
  let port: number;
  const clients: SmppTestClient[] = [];

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', env: { SMSQ_SMPP_PART_WAIT_S: '3' } });
    port = await stack.startSmpp();
  });

  afterAll(async () => {
    for (const client of clients) client.destroy();
    await stack?.stop();
  });

  async function credentialOf(clientId: number, sourceAddresses?: string[]): Promise<SmppCredentialCreated> {
    return stack.serviceClients().gateway.send<SmppCredentialCreated>(Patterns.gateway.smppCredentialCreate, { clientId, ...(sourceAddresses ? { sourceAddresses } : {}) });
  }

  async function bound(credential: SmppCredentialCreated, type: 'bind_transmitter' | 'bind_receiver' | 'bind_transceiver' = 'bind_transceiver', onPort = port): Promise<SmppTestClient> {
    const client = await SmppTestClient.bound(onPort, credential.systemId, credential.password, type);
    clients.push(client);
    return client;
  }

  /** A client with a paired phone (its worker side), 50 bonus credits and SMPP credentials. */
  async function smppClient() {
    const client = await clientWithPairedPhone(stack, { bonusCredits: 50 });
    return { ...client, credential: await credentialOf(client.clientId) };
  }

  const submit = (session: SmppTestClient, fields: Record<string, unknown>) =>
    session.request('submit_sm', { source_addr: 'smsq', dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: RECIPIENT, ...fields });

  async function taskView(apiKey: string, id: string) {
    const answer = await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': apiKey } });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  const receiptsFor = (session: SmppTestClient, messageId: string) => session.deliveries.filter((pdu) => (pdu['esm_class'] & 0x04) !== 0 && pdu['receipted_message_id'] === messageId);

  describe('binds', () => {
    it('refuses an unknown system_id, a wrong password, a revoked credential; binds the right one several times at once', async () => {
      const client = await smppClient();
      const probe = await SmppTestClient.connect(port);
      clients.push(probe);
      expect((await probe.request('bind_transceiver', { system_id: 'nobody-here', password: 'x' })).command_status).toBe(ESME_RINVSYSID);
      expect((await probe.request('bind_transceiver', { system_id: client.credential.systemId, password: 'wrong' })).command_status).toBe(ESME_RINVPASWD);
      // Before any bind, a submit is out of place.
      expect((await submit(probe, { short_message: 'too early' })).command_status).toBe(ESME_RINVBNDSTS);

      const first = await bound(client.credential, 'bind_transmitter');
      const second = await bound(client.credential, 'bind_receiver');
      const third = await bound(client.credential, 'bind_transceiver');
      // A receiver may not submit.
      expect((await submit(second, { short_message: 'from a receiver' })).command_status).toBe(ESME_RINVBNDSTS);
      expect((await submit(first, { short_message: 'from a transmitter' })).command_status).toBe(ESME_ROK);

      await stack.serviceClients().gateway.send(Patterns.gateway.smppCredentialRevoke, { clientId: client.clientId, id: client.credential.id });
      // Revoked: every bind of it is closed within seconds, and it binds no more.
      await Promise.all([first.closed, second.closed, third.closed]);
      const again = await SmppTestClient.connect(port);
      clients.push(again);
      expect((await again.request('bind_transceiver', { system_id: client.credential.systemId, password: client.credential.password })).command_status).toBe(ESME_RBINDFAIL);
    });

    it('answers an unknown command with generic_nack ESME_RINVCMDID, and an impossible command_length with generic_nack ESME_RINVCMDLEN before closing', async () => {
      const client = await smppClient();
      const session = await bound(client.credential);
      const nack = session.next('generic_nack');
      // replace_sm (0x07) is a real SMPP command smsq does not offer; header only.
      session.writeRaw(Buffer.from([0, 0, 0, 16, 0, 0, 0, 0x07, 0, 0, 0, 0, 0, 0, 0, 77]));
      expect(await nack).toMatchObject({ command_status: ESME_RINVCMDID, sequence_number: 77 });
      // A truncated submit_sm: its source_addr never ends.
      const truncated = session.next('submit_sm_resp');
      session.writeRaw(Buffer.concat([Buffer.from([0, 0, 0, 20, 0, 0, 0, 0x04, 0, 0, 0, 0, 0, 0, 0, 78]), Buffer.from('abcd')]));
      expect((await truncated).command_status).not.toBe(ESME_ROK);
      const broken = session.next('generic_nack');
      session.writeRaw(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0]));
      expect((await broken).command_status).toBe(ESME_RINVCMDLEN);
      await session.closed;
    });

    it('closes a peer that stays silent, after asking it enquire_link', async () => {
      const silentStack = stack;
      const quickPort = await silentStack.startSmpp('smpp#9', { SMSQ_SMPP_ENQUIRE_S: '1' });
      const client = await smppClient();
      const silent = await bound(client.credential, 'bind_transceiver', quickPort);
      silent.answersEnquiries = false;
      const asked = silent.next('enquire_link', 5_000);
      await asked;
      const started = Date.now();
      await silent.closed;
      expect(Date.now() - started).toBeLessThan(5_000);
      // One that answers stays bound.
      const lively = await bound(client.credential, 'bind_transceiver', quickPort);
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      expect((await lively.request('enquire_link')).command_status).toBe(ESME_ROK);
      await silentStack.kill('smpp#9');
    });
  });

  describe('TLS and metrics', () => {
    it('binds and submits over TLS where a certificate is set, and counts binds, PDUs and waiting receipts in /metrics', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'smsq-smpp-tls-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      const [tlsPort, httpPort] = [await freePort(), await freePort()];
      await stack.startSmpp('smpp#7', { SMSQ_SMPP_TLS_CERT: join(dir, 'cert.pem'), SMSQ_SMPP_TLS_KEY: join(dir, 'key.pem'), SMSQ_SMPP_TLS_PORT: String(tlsPort), SMPP_HTTP_PORT: String(httpPort) });
      const client = await smppClient();
      const secure = await SmppTestClient.bound(tlsPort, client.credential.systemId, client.credential.password, 'bind_transceiver', { tls: true });
      clients.push(secure);
      expect((await submit(secure, { short_message: 'over TLS' })).command_status).toBe(ESME_ROK);

      const metrics = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
      expect(metrics).toMatch(/^smsq_smpp_binds\{type="transceiver"[^}]*\} [1-9]/m);
      expect(metrics).toMatch(/^smsq_smpp_pdus_total\{command="submit_sm",status="ESME_ROK"[^}]*\} [1-9]/m);
      expect(metrics).toMatch(/^smsq_smpp_receipts_waiting\{[^}]*\} \d+/m);
      await stack.kill('smpp#7');
    });
  });

  describe('submit_sm', () => {
    it('queues a GSM text as a task whose id is the message_id; receipts ACCEPTD and DELIVRD follow as the phone reports', async () => {
      const client = await smppClient();
      const session = await bound(client.credential);
      // GSM 03.38 unpacked, as SMPP carries it: '[' and '€' are escapes (0x1B 0x3C, 0x1B 0x65).
      const gsm = Buffer.concat([Buffer.from('Your code is 4821 ', 'ascii'), Buffer.from([0x1b, 0x3c]), Buffer.from('ok', 'ascii'), Buffer.from([0x1b, 0x3e, 0x20, 0x1b, 0x65])]);
      const answer = await submit(session, { data_coding: 0, short_message: gsm, registered_delivery: 1 });
      expect(answer.command_status).toBe(ESME_ROK);
      const messageId = answer.message_id as string;
      expect(await taskView(client.apiKey, messageId)).toMatchObject({ recipient: `+${RECIPIENT}`, message: 'Your code is 4821 [ok] €', status: 'pending' });

      const polled = await client.worker.poll();
      expect(String(polled.body.id)).toBe(messageId);
      expect((await client.worker.report(polled.body.id, 'sent')).status).toBe(200);
      await eventually(async () => expect(receiptsFor(session, messageId)).toHaveLength(1), { timeoutMs: 15_000 });
      expect((await client.worker.report(polled.body.id, 'delivered')).status).toBe(200);
      await eventually(async () => expect(receiptsFor(session, messageId)).toHaveLength(2), { timeoutMs: 15_000 });
      const [accepted, delivered] = receiptsFor(session, messageId);
      expect(accepted).toMatchObject({ message_state: 6 });
      expect(SmppTestClient.textOf(accepted!)).toMatch(new RegExp(`^id:${messageId} sub:001 dlvrd:000 submit date:\\d{10} done date:\\d{10} stat:ACCEPTD err:000 text:Your code is 4821 \\[o`));
      expect(delivered).toMatchObject({ message_state: 2 });
      expect(SmppTestClient.textOf(delivered!)).toContain('stat:DELIVRD');
      expect(delivered!['source_addr']).toBe(RECIPIENT);
    });

    it('reads UCS-2, Latin-1 and IA5, and joins long messages split by UDH (8- and 16-bit references), by sar_ parameters and in message_payload', async () => {
      const client = await smppClient();
      const session = await bound(client.credential);
      const texts: string[] = [];
      const ids: string[] = [];
      const whole = async (fields: Record<string, unknown>, text: string) => {
        const answer = await submit(session, fields);
        expect(answer.command_status).toBe(ESME_ROK);
        ids.push(answer.message_id);
        texts.push(text);
      };
      await whole({ data_coding: 8, short_message: Buffer.from('Здраво 👋', 'utf16le').swap16() }, 'Здраво 👋');
      await whole({ data_coding: 3, short_message: Buffer.from('Grüße, Zoë', 'latin1') }, 'Grüße, Zoë');
      await whole({ data_coding: 1, short_message: Buffer.from('plain ascii', 'ascii') }, 'plain ascii');
      const long = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(7).slice(0, 400);
      await whole({ data_coding: 0, short_message: Buffer.alloc(0), message_payload: Buffer.from(long, 'ascii') }, long);

      const parts = [long.slice(0, 153), long.slice(153, 306), long.slice(306)];
      // UDH, 8-bit reference, parts sent out of order: every part is answered with the one task's id.
      const udh8 = await Promise.all(
        [2, 0, 1].map((index) => submit(session, { esm_class: 0x40, short_message: Buffer.concat([Buffer.from([5, 0x00, 3, 0x2a, 3, index + 1]), Buffer.from(parts[index]!, 'ascii')]) })),
      );
      expect(udh8.map((answer) => answer.command_status)).toEqual([0, 0, 0]);
      expect(new Set(udh8.map((answer) => answer.message_id)).size).toBe(1);
      ids.push(udh8[0]!.message_id);
      texts.push(long);
      // UDH, 16-bit reference, UCS-2.
      const cyrillic = 'Ваш пакет је стигао. '.repeat(8);
      const ucsParts = [cyrillic.slice(0, 67), cyrillic.slice(67, 134), cyrillic.slice(134)];
      const udh16 = await Promise.all(
        ucsParts.map((part, index) => submit(session, { esm_class: 0x40, data_coding: 8, short_message: Buffer.concat([Buffer.from([6, 0x08, 4, 0x12, 0x34, 3, index + 1]), Buffer.from(part, 'utf16le').swap16()]) })),
      );
      expect(new Set(udh16.map((answer) => answer.message_id)).size).toBe(1);
      ids.push(udh16[0]!.message_id);
      texts.push(cyrillic);
      // sar_ parameters.
      const sar = await Promise.all(parts.map((part, index) => submit(session, { short_message: Buffer.from(part, 'ascii'), sar_msg_ref_num: 777, sar_total_segments: 3, sar_segment_seqnum: index + 1 })));
      expect(new Set(sar.map((answer) => answer.message_id)).size).toBe(1);
      ids.push(sar[0]!.message_id);
      texts.push(long);

      for (const [index, id] of ids.entries()) expect((await taskView(client.apiKey, id)).message).toBe(texts[index]);
    });

    it('refuses a long message whose part never comes, whole: nothing is queued or charged', async () => {
      const client = await smppClient();
      const session = await bound(client.credential);
      const before = await stack.credits(client.clientId);
      const answers = await Promise.all([1, 3].map((seq) => submit(session, { esm_class: 0x40, short_message: Buffer.concat([Buffer.from([5, 0x00, 3, 0x09, 3, seq]), Buffer.from(`part ${seq}`, 'ascii')]) })));
      expect(answers.map((answer) => answer.command_status)).toEqual([ESME_RSUBMITFAIL, ESME_RSUBMITFAIL]);
      expect(await stack.credits(client.clientId)).toBe(before);
    });

    it('answers refusals with the statuses of the table: no credits, opted out, source not allowed, throttled', async () => {
      const poor = await clientWithPairedPhone(stack);
      const poorSession = await bound(await credentialOf(poor.clientId));
      let answer: SmppPdu = await submit(poorSession, { short_message: 'first' });
      for (let sent = 0; answer.command_status === ESME_ROK && sent < 200; sent++) answer = await submit(poorSession, { short_message: 'again' });
      expect(answer.command_status).toBe(SMSQ_NO_CREDITS);

      const client = await smppClient();
      await stack.http('POST', '/smsapi/opt-outs', { headers: { 'x-api-key': client.apiKey }, body: { numbers: [`+${RECIPIENT}`] } });
      const session = await bound(client.credential);
      expect((await submit(session, { short_message: 'to someone who said STOP' })).command_status).toBe(SMSQ_OPTED_OUT);

      const limited = await bound(await credentialOf(client.clientId, ['MyShop']));
      expect((await submit(limited, { source_addr: 'Other', destination_addr: '381641234568', short_message: 'hi' })).command_status).toBe(ESME_RINVSRCADR);
      expect((await submit(limited, { source_addr: 'MyShop', destination_addr: '381641234568', short_message: 'hi' })).command_status).toBe(ESME_ROK);

      const throttledPort = await stack.startSmpp('smpp#8', { SMSQ_RATE_LIMIT_RPS: '1' });
      const throttled = await bound(client.credential, 'bind_transmitter', throttledPort);
      const statuses = await Promise.all(Array.from({ length: 6 }, () => submit(throttled, { destination_addr: '381641234569', short_message: 'burst' })));
      expect(statuses.map((pdu) => pdu.command_status)).toContain(ESME_RTHROTTLED);
      await stack.kill('smpp#8');
    });

    it('pins the phone whose number is the source_addr, and leaves any other sender to routing', async () => {
      const client = await smppClient();
      const second = await stack.adminOk('phone', 'register', '--client', String(client.clientId), '--name', 'second SIM');
      await stack.http('PATCH', `/smsapi/phones/${second.phone_id}`, { headers: { 'x-api-key': client.apiKey }, body: { number: '+381601112233' } });
      const session = await bound(client.credential);
      const pinned = await submit(session, { source_addr: '381601112233', source_addr_ton: 1, short_message: 'from the second SIM' });
      expect((await taskView(client.apiKey, pinned.message_id)).phone_id).toBe(second.phone_id);
      const routed = await submit(session, { source_addr: 'Shop', short_message: 'from anyone' });
      expect((await taskView(client.apiKey, routed.message_id)).phone_id).toBe(client.phoneId);
    });
  });

  describe('query_sm and cancel_sm', () => {
    it("answers a task state; cancels a waiting task as the API does, refunded once; refuses a task that is not the client's", async () => {
      const client = await smppClient();
      const session = await bound(client.credential);
      const submitted = await submit(session, { short_message: 'cancel me' });
      const queried = await session.request('query_sm', { message_id: submitted.message_id, source_addr: 'smsq' });
      expect(queried).toMatchObject({ command_status: ESME_ROK, message_id: submitted.message_id, message_state: 1, final_date: '' });
      const before = await stack.credits(client.clientId);
      expect((await session.request('cancel_sm', { message_id: submitted.message_id, source_addr: 'smsq', destination_addr: RECIPIENT })).command_status).toBe(ESME_ROK);
      await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before + 1));
      expect((await session.request('cancel_sm', { message_id: submitted.message_id, source_addr: 'smsq', destination_addr: RECIPIENT })).command_status).toBe(ESME_RCANCELFAIL);
      expect((await session.request('query_sm', { message_id: submitted.message_id, source_addr: 'smsq' })).message_state).toBe(8);

      const other = await smppClient();
      const otherSession = await bound(other.credential);
      expect((await otherSession.request('query_sm', { message_id: submitted.message_id, source_addr: 'smsq' })).command_status).toBe(ESME_RINVMSGID);
    });
  });

  describe('receipts and replies for receivers', () => {
    it('keeps a receipt until a receiver binds, and hands a reply to the receiver as deliver_sm', async () => {
      const client = await smppClient();
      const transmitter = await bound(client.credential, 'bind_transmitter');
      const submitted = await submit(transmitter, { short_message: 'receipt later', registered_delivery: 1 });
      const polled = await client.worker.poll();
      await client.worker.report(polled.body.id, 'failed', 'no signal');
      // No receiver for a while: the receipt waits.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const receiver = await bound(client.credential, 'bind_receiver');
      await eventually(async () => expect(receiptsFor(receiver, submitted.message_id)).toHaveLength(1), { timeoutMs: 15_000 });
      expect(SmppTestClient.textOf(receiptsFor(receiver, submitted.message_id)[0]!)).toContain('stat:UNDELIV');

      const reply = await client.worker.inbound({ from: `+${RECIPIENT}`, message: 'Thanks, got it ✓', received_at: new Date().toISOString() });
      expect(reply.status).toBe(201);
      await eventually(async () => expect(receiver.deliveries.filter((pdu) => (pdu['esm_class'] & 0x04) === 0).map(SmppTestClient.textOf)).toEqual(['Thanks, got it ✓']), { timeoutMs: 15_000 });
    });

    it('delivers a receipt to the replica that holds the receiver bind', async () => {
      const client = await smppClient();
      const replicaPort = await stack.startSmpp('smpp#2');
      const receiver = await bound(client.credential, 'bind_receiver', replicaPort);
      const transmitter = await bound(client.credential, 'bind_transmitter');
      const submitted = await submit(transmitter, { short_message: 'across replicas', registered_delivery: 1 });
      const polled = await client.worker.poll();
      await client.worker.report(polled.body.id, 'delivered');
      await eventually(async () => expect(receiptsFor(receiver, submitted.message_id).map(SmppTestClient.textOf).join('\n')).toContain('stat:DELIVRD'), { timeoutMs: 15_000 });
      await stack.kill('smpp#2');
    });

    it('sends a receipt the receiver refused again, until it takes it', async () => {
      const client = await smppClient();
      const session = await bound(client.credential);
      session.deliveryStatus = 0x08;
      const submitted = await submit(session, { short_message: 'refused once', registered_delivery: 1 });
      const polled = await client.worker.poll();
      await client.worker.report(polled.body.id, 'delivered');
      await eventually(async () => expect(receiptsFor(session, submitted.message_id).length).toBeGreaterThan(0), { timeoutMs: 15_000 });
      session.deliveryStatus = ESME_ROK;
      const refused = receiptsFor(session, submitted.message_id).length;
      await eventually(async () => expect(receiptsFor(session, submitted.message_id).length).toBeGreaterThan(refused), { timeoutMs: 20_000 });
    });
  });
});
