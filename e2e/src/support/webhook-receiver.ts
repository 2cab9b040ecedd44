import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookEvent {
  id: string;
  type: string;
  data: Record<string, any>;
}

/** A local receiver of a client's webhooks: every event it was sent, in order of arrival, each answered 204. */
export async function startWebhookReceiver(): Promise<{ server: Server; url: string; events: WebhookEvent[] }> {
  const events: WebhookEvent[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      events.push(JSON.parse(body) as WebhookEvent);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/smsq-events`, events };
}
