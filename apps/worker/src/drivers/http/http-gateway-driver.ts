import { describeErrorBody, describeFetchFailure, parseBody } from '../../http/http-answers.js';
import type { OutgoingSms, PhoneDriver, SendOutcome } from '../phone-driver.js';

/**
 * A generic HTTP gateway (docs/phones.md, setup 3): `POST {gateway_url}/send` with
 * `{id, recipient, message}`. A 2xx answer means sent; anything else, or no answer in time, failed.
 * gateway-sim speaks it, and so can any small bridge to another SMS provider.
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
      return { status: 'failed', error: `gateway answered ${response.status}${reason ? `: ${reason}` : ''}` };
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

function messageIdOf(body: unknown): { messageId?: string } {
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['message_id'] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? { messageId: String(id) } : {};
}
