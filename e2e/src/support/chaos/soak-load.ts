import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DashboardBrowser } from '../secret-scan.js';
import { call, sleep, type RequestTally } from './chaos-http.js';
import type { ChaosClient } from './client-load.js';

/**
 * The soak's webhook receiver: answers 500 to a share of deliveries (the deliverer retries them)
 * and 204 to the rest, counting both and the distinct events it took.
 */
export class WebhookReceiver {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly counts: { accepted: number; refused: number },
    private readonly events: Set<string>,
  ) {}

  static async start(refuseShare: number): Promise<WebhookReceiver> {
    const counts = { accepted: 0, refused: 0 };
    const events = new Set<string>();
    const server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        if (Math.random() < refuseShare) {
          counts.refused += 1;
          return void response.writeHead(500).end();
        }
        counts.accepted += 1;
        try {
          events.add(String((JSON.parse(body) as { id?: string }).id));
        } catch {
          // counted; the body is the deliverer's business
        }
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/smsq-events`, counts, events);
  }

  get distinctEvents(): number {
    return this.events.size;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Every load client's endpoint for its task events and replies, pointing at `url`. */
export async function registerWebhooks(baseUrl: string, clients: ChaosClient[], url: string, tally: RequestTally): Promise<void> {
  for (const client of clients.filter((one) => !one.probe)) {
    const answer = await call(tally, 'register-webhook', baseUrl, 'POST', '/smsapi/webhooks', {
      headers: { 'x-api-key': client.apiKey },
      body: { url, events: ['task.sent', 'task.failed', 'task.rerouted', 'message.received'] },
    });
    if (answer.status !== 201) throw new Error(`POST /smsapi/webhooks answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

const PAGES = ['/api/overview', '/api/tasks', '/api/phones', '/api/webhooks', '/api/inbox', '/'];

/**
 * A client user reading the dashboard: signed up once, then one page or API read every `everyMs`,
 * taking the dashboards in turn; a session lost (Redis restarted) is signed into again.
 * Answers are counted under `dashboard-read` (status 0: no answer within 20 s).
 */
export class DashboardReader {
  private running = true;
  private readonly loop: Promise<void>;

  private constructor(
    private readonly browsers: DashboardBrowser[],
    private readonly credentials: { email: string; password: string },
    private readonly tally: RequestTally,
    everyMs: number,
  ) {
    this.loop = this.read(everyMs);
  }

  static async start(dashboardUrls: string[], tally: RequestTally, everyMs: number): Promise<DashboardReader> {
    const browsers = dashboardUrls.map((url) => new DashboardBrowser(url, () => undefined));
    const credentials = { email: `soak-${Date.now()}@example.com`, password: 'soak reader passphrase' };
    const signedUp = await browsers[0]!.send('POST', '/api/auth/signup', credentials);
    if (signedUp.status !== 201) throw new Error(`dashboard sign-up answered ${signedUp.status}: ${JSON.stringify(signedUp.body)}`);
    return new DashboardReader(browsers, credentials, tally, everyMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async read(everyMs: number): Promise<void> {
    for (let turn = 0; this.running; turn++) {
      const browser = this.browsers[turn % this.browsers.length]!;
      const page = PAGES[turn % PAGES.length]!;
      const status = await this.timed('dashboard-read', () => browser.request('GET', page));
      if (status === 401) await this.timed('dashboard-signin', () => this.signIn(browser));
      await sleep(everyMs);
    }
  }

  private async signIn(browser: DashboardBrowser): Promise<{ status: number }> {
    browser.cookies.clear();
    browser.csrfToken = undefined;
    return browser.send('POST', '/api/auth/signin', this.credentials);
  }

  /** One request counted with its time; a network error or no answer within 20 s is status 0. */
  private async timed(kind: string, request: () => Promise<{ status: number }>): Promise<number> {
    const startedAt = Date.now();
    const status = await Promise.race([request().then((answer) => answer.status, () => 0), sleep(20_000).then(() => 0)]);
    this.tally.count(kind, status, startedAt);
    return status;
  }
}
