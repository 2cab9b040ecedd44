import { describeErrorBody, describeFetchFailure, parseBody } from '../../http/http-answers.js';
import type { OutgoingSms, PhoneDriver, SendOutcome } from '../phone-driver.js';

/**
 * A generic HTTP gateway (docs/phones.md, setup 3): `POST {gateway_url}/send` with
 * `{id, recipient, message}`. A 2xx answer means sent; anything else, or no answer in time, failed.
 * A failure answer whose JSON body says `"retry": true` is the gateway's word that nothing was sent
 * (no signal, its SIM missing…): the failure is reported with `retry`, and smsq may queue the task
 * again; nothing else is, not even a lost answer. gateway-sim speaks it, and so can any small
 * bridge to another SMS provider.
 */
export class HttpGatewayDriver implements PhoneDriver {
  readonly name = 'http';

  constructor(private readonly sendTimeoutMs: number) {}

  async send(sms: OutgoingSms): Promise<SendOutcome> {
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
      return { status: 'failed', error: `gateway answered ${response.status}${reason ? `: ${reason}` : ''}`, ...(saysNothingSent(body) ? { retry: true as const } : {}) };
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

function messageIdOf(body: unknown): { messageId?: string } {
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['message_id'] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? { messageId: String(id) } : {};
}
