import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaptCaddyfile, httpsGet, runCaddy, type CaddyConfig } from './caddy.js';

const deployRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(deployRoot, '..');
const CADDYFILE = join(deployRoot, 'compose', 'Caddyfile');
const DOMAIN = 'sms.example.com';

/** What a stand-in for smsq's gateway or dashboard saw of a request Caddy passed on. */
interface Seen {
  upstream: 'gateway' | 'dashboard';
  path: string;
  forwardedFor: string | undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function standIn(upstream: Seen['upstream']): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const seen: Seen = { upstream, path: request.url ?? '', forwardedFor: request.headers['x-forwarded-for'] as string | undefined };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

let workspace: string;
let adapted: CaddyConfig;
let caddyPort: number;
let caddy: Awaited<ReturnType<typeof runCaddy>> | undefined;
const standIns: Server[] = [];

/** Where Caddy sent a GET of `path`: the stand-in that answered, or the status Caddy answered itself. */
async function routeOf(path: string, headers: Record<string, string> = {}): Promise<Seen | number> {
  const answer = await httpsGet(DOMAIN, caddyPort, path, headers);
  if (answer.status !== 200) return answer.status;
  return JSON.parse(answer.body) as Seen;
}

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'smsq-caddy-'));
  adapted = adaptCaddyfile(CADDYFILE, { SMSQ_DOMAIN: DOMAIN });
  // The file as written, run for real: only where it listens, where smsq is, and who signs the certificate change.
  const gateway = await standIn('gateway');
  const dashboard = await standIn('dashboard');
  standIns.push(gateway.server, dashboard.server);
  caddyPort = await freePort();
  const config = JSON.parse(JSON.stringify(adapted).replaceAll('"smsq:3000"', `"127.0.0.1:${gateway.port}"`).replaceAll('"smsq:3001"', `"127.0.0.1:${dashboard.port}"`)) as CaddyConfig;
  config.admin = { disabled: true };
  config.storage = { module: 'file_system', root: join(workspace, 'data') };
  config.apps.http.https_port = caddyPort;
  config.apps.http.http_port = await freePort();
  for (const server of Object.values(config.apps.http.servers)) server.listen = [`127.0.0.1:${caddyPort}`];
  for (const policy of config.apps.tls?.automation?.policies ?? []) policy.issuers = [{ module: 'internal' }];
  config.apps.pki = { certificate_authorities: { local: { install_trust: false } } };
  caddy = await runCaddy(config, workspace, caddyPort);
}, 30_000);

afterAll(async () => {
  await caddy?.stop();
  for (const server of standIns) server.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

describe('deploy/compose/Caddyfile, read by Caddy', () => {
  it('serves SMSQ_DOMAIN on 443 only, with a certificate from the ACME TLS-ALPN challenge (no HTTP challenge, no redirect server)', () => {
    const servers = Object.values(adapted.apps.http.servers);
    expect(servers.map((server) => server.listen)).toEqual([[':443']]);
    expect(servers[0]!.automatic_https?.disable_redirects).toBe(true);
    expect(JSON.stringify(servers[0]!.routes)).toContain(`"host":["${DOMAIN}"]`);
    const [policy] = adapted.apps.tls!.automation!.policies!;
    expect(policy!.subjects).toEqual([DOMAIN]);
    expect(policy!.issuers).toEqual([{ module: 'acme', challenges: { http: { disabled: true } } }]);
  });
});

describe('deploy/compose/Caddyfile, run by Caddy in front of stand-ins for the gateway and the dashboard', () => {
  it("sends every route of the public API document, the document itself and the reference page to the gateway, unchanged", async () => {
    // The routes of the OpenAPI document, which the gateway refuses to start without serving exactly (deploy/ may not import the libraries).
    const operations = readFileSync(join(repoRoot, 'libs/contracts/src/openapi/operations.ts'), 'utf8');
    const routes = [...operations.matchAll(/^  '(?:GET|POST|PUT|PATCH|DELETE) (\/[^']*)': \{/gm)].map((match) => match[1]!.replace(/\{\w+\}/g, '7'));
    expect(routes.length).toBeGreaterThan(10);
    const documentPath = /OPENAPI_DOCUMENT_PATH = '([^']+)'/.exec(readFileSync(join(repoRoot, 'libs/contracts/src/openapi/document.ts'), 'utf8'))![1]!;
    for (const path of [...new Set(routes), documentPath, '/docs', '/docs/swagger-ui.css', '/smsapi/tasks?status=pending&limit=5']) {
      expect(await routeOf(path), path).toEqual({ upstream: 'gateway', path, forwardedFor: '127.0.0.1' });
    }
  });

  it("sends the dashboard's pages and its back end's routes to the dashboard", async () => {
    const controllers = execFileSync('grep', ['-rhoE', "@Controller\\('[^']*'\\)", join(repoRoot, 'apps/dashboard/src')], { encoding: 'utf8' });
    const prefixes = [...new Set((controllers.match(/'[^']*'/g) ?? []).map((quoted) => quoted.slice(1, -1)))];
    expect(prefixes).toContain('api/auth');
    for (const path of ['/', '/signin', '/tasks', '/tasks/7', '/admin/clients', '/healthz', '/assets/index.js', ...prefixes.map((prefix) => `/${prefix}/x`)]) {
      expect(await routeOf(path), path).toEqual({ upstream: 'dashboard', path, forwardedFor: '127.0.0.1' });
    }
  });

  it('answers /metrics and /readyz itself with 404: they stay inside', async () => {
    for (const path of ['/metrics', '/metrics/x', '/readyz']) expect(await routeOf(path), path).toBe(404);
  });

  it("passes on the visitor's own address, not one the visitor made up (the dashboard's throttles trust it)", async () => {
    expect(await routeOf('/api/auth/x', { 'x-forwarded-for': '203.0.113.9' })).toMatchObject({ upstream: 'dashboard', forwardedFor: '127.0.0.1' });
  });
});
