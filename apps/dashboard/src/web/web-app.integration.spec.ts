import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../testing/dashboard-harness.js';
import { serveWebApp } from './web-app.js';

/** fetch() normalises `..` away; a raw request sends the path exactly as an attacker would. */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string; contentType: string | undefined }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, contentType: response.headers['content-type'] }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe(serveWebApp.name, () => {
  let dashboard: TestDashboard;
  let unbuilt: TestDashboard;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dashboard-web-'));
    const webDir = join(root, 'dist');
    mkdirSync(join(webDir, 'assets'), { recursive: true });
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>smsq</title><div id="root"></div>');
    writeFileSync(join(webDir, 'assets', 'index-B7xQ2kLm.js'), 'console.log("app")');
    writeFileSync(join(webDir, 'assets', 'index-C9yR3nPq.css'), 'body{}');
    writeFileSync(join(webDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(webDir, 'favicon.ico'), 'ico');
    writeFileSync(join(webDir, '.env'), 'SECRET=hidden');
    writeFileSync(join(root, 'secret.txt'), 'outside the web root');
    symlinkSync(join(root, 'secret.txt'), join(webDir, 'linked.txt'));
    writeFileSync(join(root, 'smsq-worker.mjs'), '#!/usr/bin/env node\nconsole.log("worker")\n');
    dashboard = await startTestDashboard('dashboard_web', { webDir, workerFile: join(root, 'smsq-worker.mjs') });
    unbuilt = await startTestDashboard('dashboard_web_unbuilt', { webDir: join(root, 'missing') });
  });

  afterAll(async () => {
    await dashboard?.close();
    await unbuilt?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['/', 'text/html; charset=utf-8', 'no-cache'],
    ['/assets/index-B7xQ2kLm.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/assets/index-C9yR3nPq.css', 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/logo.svg', 'image/svg+xml', 'no-cache'],
    ['/favicon.ico', 'image/x-icon', 'no-cache'],
  ])('serves %s as %s with cache-control %s', async (path, contentType, cacheControl) => {
    const response = await fetch(new URL(path, dashboard.baseUrl));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(response.headers.get('cache-control')).toBe(cacheControl);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers the app’s own routes with index.html', async () => {
    const response = await fetch(new URL('/tasks/42?status=failed', dashboard.baseUrl));

    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
  });

  it('answers a missing file with 404, and unknown API paths with the JSON error', async () => {
    const file = await fetch(new URL('/assets/missing-AAAAAAAA.js', dashboard.baseUrl));
    const api = await fetch(new URL('/api/unknown', dashboard.baseUrl));

    expect(file.status).toBe(404);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'not_found', detail: expect.any(String) });
  });

  it.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/%00/etc/passwd',
    '/%E0%A4%A.txt',
    '/.env',
    '/linked.txt',
    `/${'..%2f'.repeat(12)}etc/passwd`,
  ])('refuses %s without revealing anything outside the web root', async (path) => {
    const response = await rawGet(dashboard.baseUrl, path);

    expect(response.body).not.toContain('outside the web root');
    expect(response.body).not.toContain('SECRET=');
    expect(response.body).not.toContain('root:');
    // Fastify itself refuses a path that is not valid percent-encoding (400); everything else is 404.
    expect([400, 404]).toContain(response.status);
  });

  it('reads an empty segment as nothing, not as the file system root', async () => {
    const response = await rawGet(dashboard.baseUrl, '//etc/passwd');

    expect(response.status).toBe(200);
    expect(response.body).toContain('<div id="root">');
  });

  it('offers the built worker for download, and says so in the session answer', async () => {
    const response = await fetch(new URL('/downloads/smsq-worker.mjs', dashboard.baseUrl));
    const session = await dashboard.browser().session();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="smsq-worker.mjs"');
    expect(await response.text()).toContain('console.log("worker")');
    expect(session.workerDownloadUrl).toBe('/downloads/smsq-worker.mjs');
  });

  it('answers 404 for the worker while it is not built, and offers no download', async () => {
    const response = await fetch(new URL('/downloads/smsq-worker.mjs', unbuilt.baseUrl));
    const session = await unbuilt.browser().session();

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', detail: expect.stringContaining('worker:build') });
    expect(session.workerDownloadUrl).toBeNull();
  });

  it('says how to build the front end when it is not built', async () => {
    const response = await fetch(new URL('/overview', unbuilt.baseUrl));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('npx nx run dashboard-web:build');
  });
});
