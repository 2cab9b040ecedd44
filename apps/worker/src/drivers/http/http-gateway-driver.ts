import { describeErrorBody, describeFetchFailure, parseBody } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { OutgoingSms, PhoneDriver, SendOutcome } from '../phone-driver.js';

/** The `error` words of a failure answer that say the gateway's carrier refused it for volume. */
const VOLUME_ERRORS: ReadonlySet<string> = new Set(['limit_exceeded', 'carrier_volume']);

/**
 * A generic HTTP gateway (docs/guide/phones.md, setup 3): `POST {gateway_url}/send` with
 * `{id, recipient, message}`. A 2xx answer means sent; anything else, or no answer in time, failed.
 * A failure answer whose JSON body says `"retry": true` is the gateway's word that nothing was sent
 * (no signal, its SIM missing…): the failure is reported with `retry`, and smsq may queue the task
 * again; nothing else is, not even a lost answer. A 429, or a failure answer whose JSON `error` is
 * `limit_exceeded` or `carrier_volume`, is its word that the carrier refused for volume: nothing
 * was sent, reported with `retry` and `reason: carrier_volume`. gateway-sim speaks it, and so can
 * any small bridge to another SMS provider. The request carries no SIM: a SIM smsq chose is
 * ignored (logged once).
 */
export class HttpGatewayDriver implements PhoneDriver {
  readonly name = 'http';
  private simIgnored = false;

  constructor(
    private readonly sendTimeoutMs: number,
    private readonly log?: WorkerLog,
  ) {}

  async send(sms: OutgoingSms): Promise<SendOutcome> {
    if (sms.sim !== undefined && !this.simIgnored) {
      this.simIgnored = true;
      this.log?.warn('the generic HTTP gateway takes no SIM: the SIM smsq chooses for a task is ignored', { task: sms.taskId, sim: sms.sim });
    }
    if (sms.gatewayUrl === null) return { status: 'failed', error: 'the phone has no gateway URL' };
    const url = sendUrl(sms.gatewayUrl);
    if (url === undefined) return { status: 'failed', error: 'the gateway URL is not a usable http(s) URL' };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ id: sms.taskId, recipient: sms.recipient, message: sms.message }),
        signal: AbortSignal.timeout(this.sendTimeoutMs),
      });
      const body = parseBody(await response.text());
      if (response.ok) return { status: 'sent', delivered: false, ...messageIdOf(body) };
      const reason = describeErrorBody(body);
      const error = `gateway answered ${response.status}${reason ? `: ${reason}` : ''}`;
      if (response.status === 429 || saysVolume(body)) return { status: 'failed', error, retry: true, reason: 'carrier_volume' };
      return { status: 'failed', error, ...(saysNothingSent(body) ? { retry: true as const } : {}) };
    } catch (error) {
      return { status: 'failed', error: `gateway unreachable: ${describeFetchFailure(error, this.sendTimeoutMs)}` };
    }
  }
}

/** `{gateway_url}/send`, keeping any path the gateway URL has. */
function sendUrl(gatewayUrl: string): URL | undefined {
  try {
    const base = new URL(gatewayUrl.endsWith('/') ? gatewayUrl : `${gatewayUrl}/`);
    return base.protocol === 'http:' || base.protocol === 'https:' ? new URL('send', base) : undefined;
  } catch {
    return undefined;
  }
}

/** `{"retry": true, …}`: the gateway's explicit word, never inferred from a status code. */
function saysNothingSent(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as Record<string, unknown>)['retry'] === true;
}

/** `{"error": "limit_exceeded" | "carrier_volume", …}`: the gateway's explicit word that its carrier refused for volume. */
function saysVolume(body: unknown): boolean {
  const error = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['error'] : undefined;
  return typeof error === 'string' && VOLUME_ERRORS.has(error);
}

function messageIdOf(body: unknown): { messageId?: string } {
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['message_id'] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? { messageId: String(id) } : {};
}
