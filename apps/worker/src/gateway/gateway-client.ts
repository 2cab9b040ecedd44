import { describeErrorBody, describeFetchFailure, parseBody } from '../http/http-answers.js';
import type { PendingTask } from '../smsq/pending-task.js';

export type DeliveryOutcome = { status: 'sent'; messageId?: string } | { status: 'failed'; error: string };

/**
 * Hands one SMS to the phone or gateway that will send it: `POST {gateway_url}/send` with
 * `{id, recipient, message}`. A 2xx answer means sent; anything else, or no answer in time, failed.
 */
export class GatewayClient {
  constructor(private readonly sendTimeoutMs: number) {}

  async send(task: Pick<PendingTask, 'id' | 'recipient' | 'message' | 'gatewayUrl'>): Promise<DeliveryOutcome> {
    if (task.gatewayUrl === null) return { status: 'failed', error: 'the phone has no gateway URL' };
    const url = sendUrl(task.gatewayUrl);
    if (url === undefined) return { status: 'failed', error: 'the gateway URL is not a usable http(s) URL' };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ id: task.id, recipient: task.recipient, message: task.message }),
        signal: AbortSignal.timeout(this.sendTimeoutMs),
      });
      const body = parseBody(await response.text());
      if (response.ok) return { status: 'sent', ...messageIdOf(body) };
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
