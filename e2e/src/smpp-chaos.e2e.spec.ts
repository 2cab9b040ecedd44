import { Patterns, type SmppCredentialCreated } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmppTestClient } from './support/smpp-client.js';
import { Stack } from './support/stack.js';
import { clientWithPairedPhone } from './support/worker-api.js';

/**
 * The SMPP service SIGKILLed and started again while a client submits with receipts asked and
 * its phone sends: every submit it answered is one task, sent once, whose DELIVRD receipt reaches
 * the client (over the bind it makes again); nothing it answered is lost, nothing is sent twice.
 */

const MESSAGES = 60;
const WINDOW = 10;

describe('SMPP under a kill', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A' });
    await stack.startSmpp();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('loses no receipt of an answered submit and sends nothing twice', async () => {
    const client = await clientWithPairedPhone(stack, { bonusCredits: 200 });
    const credential = await stack.serviceClients().gateway.send<SmppCredentialCreated>(Patterns.gateway.smppCredentialCreate, { clientId: client.clientId });
    const port = Number(stack.env['SMSQ_SMPP_PORT']);
    const sessions: SmppTestClient[] = [await SmppTestClient.bound(port, credential.systemId, credential.password)];

    // The phone: claims whatever is due and reports it delivered, counting what it was handed.
    const handed = new Map<number, number>();
    let phoneOn = true;
    const phone = (async () => {
      while (phoneOn) {
        const claimed = await client.worker.poll(1);
        const id = claimed.body?.id as number | undefined;
        if (id === undefined) continue;
        handed.set(id, (handed.get(id) ?? 0) + 1);
        await client.worker.report(id, 'delivered');
      }
    })();

    const answered = new Set<string>();
    let unanswered = 0;
    const submitAll = async (session: SmppTestClient, count: number) => {
      for (let start = 0; start < count; start += WINDOW) {
        const window = Array.from({ length: Math.min(WINDOW, count - start) }, (_, index) =>
          session.request('submit_sm', { source_addr: 'smsq', dest_addr_ton: 1, destination_addr: `38164${String(1_000_000 + start + index)}`, short_message: `chaos ${start + index}`, registered_delivery: 1 }, 5_000),
        );
        for (const outcome of await Promise.allSettled(window)) {
          if (outcome.status === 'fulfilled' && outcome.value.command_status === 0) answered.add(outcome.value.message_id);
          else unanswered++;
        }
      }
    };

    const first = submitAll(sessions[0]!, MESSAGES / 2);
    await eventually(async () => expect(answered.size).toBeGreaterThanOrEqual(10), { timeoutMs: 20_000, intervalMs: 20 });
    await stack.kill('smpp', 'SIGKILL');
    await first;
    await stack.startSmpp();
    const again = await SmppTestClient.bound(port, credential.systemId, credential.password);
    sessions.push(again);
    await submitAll(again, MESSAGES / 2);

    const delivered = () => new Set(sessions.flatMap((session) => session.deliveries).filter((pdu) => (pdu['esm_class'] & 0x04) !== 0 && SmppTestClient.textOf(pdu).includes('stat:DELIVRD')).map((pdu) => pdu['receipted_message_id'] as string));
    await eventually(async () => expect([...answered].filter((id) => !delivered().has(id))).toEqual([]), { timeoutMs: 45_000, intervalMs: 250 });
    phoneOn = false;
    await phone;

    // Each answered submit is one task the phone was handed once; a submit the kill left unanswered made one task at most.
    for (const id of answered) expect(handed.get(Number(id))).toBe(1);
    expect([...handed.values()].every((times) => times === 1)).toBe(true);
    expect(handed.size).toBeGreaterThanOrEqual(answered.size);
    expect(handed.size).toBeLessThanOrEqual(answered.size + unanswered);
    for (const session of sessions) session.destroy();
  }, 120_000);
});
