// submit_sm load (scenario 6, issue 42), run on the load generator's thread like the HTTP load.
import { performance } from 'node:perf_hooks';
import { createTaskBody, type LoadPlan, type LoadResult, type SmppBindPlan } from './load-plan.js';
import { smpp, type SmppClientSession, type SmppPdu } from './smpp-package.js';
import { resultOf, Tally } from './tally.js';

type ClosedPlan = Extract<LoadPlan, { kind: 'submit-sm'; mode: 'closed' }>;
type SequentialPlan = Extract<LoadPlan, { kind: 'submit-sm'; mode: 'sequential' }>;

const ESME_ROK = 0;

/** One transmitter bind of the `smpp` package's client; each submit is answered its command_status, or `timeout` / `network`. */
class TransmitterBind {
  private readonly outstanding = new Set<(outcome: 'network') => void>();
  private open = true;

  private constructor(
    private readonly session: SmppClientSession,
    private readonly timeoutMs: number,
  ) {
    session.on('error', () => undefined);
    // smsq asks a quiet bind enquire_link, and unbinds one that stays quiet.
    session.on('enquire_link', (pdu) => session.send(pdu.response()));
    session.on('close', () => {
      this.open = false;
      for (const settle of this.outstanding) settle('network');
    });
  }

  static async bind(plan: SmppBindPlan): Promise<TransmitterBind> {
    const session = await new Promise<SmppClientSession>((resolve, reject) => {
      const connecting = smpp.connect({ url: `smpp://${plan.host}:${plan.port}` });
      const failed = (error: Error) => reject(error);
      connecting.once('error', failed);
      connecting.once('connect', () => {
        connecting.removeListener('error', failed);
        resolve(connecting);
      });
    });
    // As Node's HTTP client does for the create-task side: no Nagle delay on small requests.
    session.socket.setNoDelay(true);
    const bind = new TransmitterBind(session, plan.timeoutMs);
    const answer = await bind.request('bind_transmitter', { system_id: plan.systemId, password: plan.password });
    if (typeof answer === 'string' || answer.command_status !== ESME_ROK) {
      session.destroy();
      throw new Error(`bind_transmitter of ${plan.systemId} answered ${typeof answer === 'string' ? answer : `0x${answer.command_status.toString(16)}`}`);
    }
    return bind;
  }

  /** A submit_sm carrying create-task's body for `sequence`; answered its command_status (a submit_sm_resp without a message_id counts as `no message_id`). */
  async submit(sequence: number, recipients: number | undefined): Promise<number | string> {
    const { recipient, message } = createTaskBody(sequence, recipients);
    const answer = await this.request('submit_sm', {
      source_addr: 'smsq',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: recipient.replace(/^\+/, ''),
      short_message: message,
      registered_delivery: 0,
    });
    if (typeof answer === 'string') return answer;
    if (answer.command_status === ESME_ROK && !answer['message_id']) return 'no message_id';
    return answer.command_status;
  }

  private request(command: string, fields: Record<string, unknown>): Promise<SmppPdu | 'timeout' | 'network'> {
    if (!this.open) return Promise.resolve('network');
    return new Promise((resolve) => {
      const settle = (outcome: SmppPdu | 'timeout' | 'network') => {
        clearTimeout(timer);
        this.outstanding.delete(settle);
        resolve(outcome);
      };
      const timer = setTimeout(() => settle('timeout'), this.timeoutMs);
      this.outstanding.add(settle);
      if (!this.session.send(new smpp.PDU(command, fields), settle)) settle('network');
    });
  }

  async unbind(): Promise<void> {
    if (this.open) await this.request('unbind', {});
    this.session.close();
  }
}

/** `total` submits over one bind, `window` of them outstanding at all times (each loop below holds one). */
export async function submitsClosed(plan: ClosedPlan): Promise<LoadResult> {
  const bind = await TransmitterBind.bind(plan.smpp);
  const tally = new Tally();
  let sequence = 0;
  const began = performance.now();
  const loop = async (): Promise<void> => {
    while (sequence < plan.total) {
      const n = sequence++;
      const startedAt = performance.now();
      tally.record(startedAt, await bind.submit(n, plan.recipients), ESME_ROK);
    }
  };
  await Promise.all(Array.from({ length: plan.window }, loop));
  const result = resultOf(tally, performance.now() - began);
  await bind.unbind();
  return result;
}

/** One submit at a time over one bind, `pauseMs` apart: each finds the services at rest. */
export async function submitsSequential(plan: SequentialPlan): Promise<LoadResult> {
  const bind = await TransmitterBind.bind(plan.smpp);
  const tally = new Tally();
  const began = performance.now();
  for (let n = 0; n < plan.requests; n += 1) {
    if (n > 0) await new Promise((resolve) => setTimeout(resolve, plan.pauseMs));
    const startedAt = performance.now();
    tally.record(startedAt, await bind.submit(n, plan.recipients), ESME_ROK);
  }
  const result = resultOf(tally, performance.now() - began);
  await bind.unbind();
  return result;
}
