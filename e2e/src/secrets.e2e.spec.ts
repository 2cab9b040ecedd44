import { ensureServiceRole } from '@smsq/persistence';
import { eventually } from '@smsq/testing';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardBrowser, dumpDatabase, dumpRedis, findLeaks, formsOf, type Haystack } from './support/secret-scan.js';
import { Stack, type ServiceName } from './support/stack.js';

/** What is stored and shown of a key or token on purpose: `smsq_key_` / `smsq_wkr_` and four characters. */
const VISIBLE_PREFIX = 13;
const SCHEMAS = ['gateway', 'billing', 'dispatch', 'inbox', 'dashboard'];
const SERVICES: ServiceName[] = ['api-gateway', 'billing', 'dispatch', 'inbox', 'dashboard', 'worker', 'gateway-sim'];
const SMS = { recipient: '+381641234567', message: 'secret-scan test message' };

const sha256 = (raw: string) => createHash('sha256').update(raw, 'utf8').digest('hex');
const password = () => `pw-${randomBytes(12).toString('hex')}`;
/** The same credential with its last character changed: a typo, which the checksum refuses. */
const mistyped = (raw: string) => raw.slice(0, -1) + (raw.endsWith('A') ? 'B' : 'A');

/**
 * DESIGN.md §3 and issue 5: keys, tokens and passwords never appear in clear in the database,
 * the logs, Redis or an error body. Every path that makes or uses one is exercised, every raw
 * value is collected, and then every place is searched.
 */
describe('secrets stay out of the database, the logs, Redis and error bodies (Profile A)', () => {
  let stack: Stack;
  let dashboardUrl: string;
  let simUrl: string;

  /** label → the forms of the secret to search for. */
  const secrets = new Map<string, string[]>();
  const apiKeys: string[] = [];
  const workerTokens: string[] = [];
  const sessionIds: string[] = [];
  /** Every non-2xx answer of the run, and every failed admin command's output. */
  const errorBodies: Haystack[] = [];

  function credential(label: string, raw: string, kind: 'key' | 'token'): string {
    expect(raw, label).toMatch(kind === 'key' ? /^smsq_key_/ : /^smsq_wkr_/);
    secrets.set(label, formsOf(raw, VISIBLE_PREFIX));
    (kind === 'key' ? apiKeys : workerTokens).push(raw);
    return raw;
  }

  function secret(label: string, raw: string): string {
    secrets.set(label, formsOf(raw));
    return raw;
  }

  function recordAnswer(where: string, status: number, text: string): void {
    if (status < 200 || status >= 300) errorBodies.push({ where: `${where} → ${status}`, text });
  }

  async function api(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}) {
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    recordAnswer(`api ${method} ${path.split('?')[0]}`, response.status, text);
    let body: any;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, body };
  }

  const key = (apiKey: string) => ({ 'x-api-key': apiKey });
  const token = (workerToken: string) => ({ 'x-worker-token': workerToken });

  function browser(): DashboardBrowser {
    return new DashboardBrowser(dashboardUrl, (method, path, status, text) => recordAnswer(`dashboard ${method} ${path}`, status, text));
  }

  function rememberSession(label: string, client: DashboardBrowser): void {
    const id = client.cookies.get(`${stack.env['SMSQ_NAMESPACE']}_sid`);
    expect(id, `${label}: session cookie`).toMatch(/^[A-Za-z0-9_-]{43}$/);
    sessionIds.push(secret(label, id!));
  }

  beforeAll(async () => {
    // The password cost as users get it (empty is unset: the default), not the tests' cheap one: the stored hashes must be bcrypt at 12.
    stack = await Stack.start({ profile: 'A', env: { DASHBOARD_PASSWORD_COST: '' } });
    [dashboardUrl, simUrl] = await Promise.all([stack.startDashboard(), stack.startGatewaySim({ GATEWAY_SIM_FAILURE_RATE: '0' })]);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('never shows a key, token, password or session id in clear anywhere but its one answer', { timeout: 180_000 }, async () => {
    // ---- Admin: clients, keys and worker tokens (the command line once: its stdout is the "shown once" channel).
    const { client_id: clientA } = await stack.adminOk('client', 'create', '--name', 'secrets client A');
    const cliKey = await stack.cli('key', 'create', '--client', String(clientA));
    expect(cliKey.exitCode).toBe(0);
    const keyA = credential('API key A (admin CLI)', cliKey.output.api_key, 'key');
    const revokedKey = await stack.adminOk('key', 'create', '--client', String(clientA));
    credential('API key A2 (admin, revoked)', revokedKey.api_key, 'key');
    await stack.adminOk('key', 'revoke', '--key', String(revokedKey.key_id));
    const phoneA = await stack.adminOk('phone', 'register', '--client', String(clientA), '--name', 'admin phone');
    const tokenA = credential('worker token A (admin phone register)', phoneA.worker_token, 'token');
    const extraToken = await stack.adminOk('worker-token', 'create', '--phone', String(phoneA.phone_id));
    const revokedToken = credential('worker token A2 (admin, revoked)', extraToken.worker_token, 'token');
    await stack.adminOk('worker-token', 'revoke', '--token', String(extraToken.token_id));

    const { client_id: clientB } = await stack.adminOk('client', 'create', '--name', 'secrets client B');
    const keyB = credential('API key B (admin)', (await stack.adminOk('key', 'create', '--client', String(clientB))).api_key, 'key');

    // ---- register-phone over HTTP: the token is in the answer (expected); again with the same device revokes the first.
    const first = await api('POST', '/smsapi/register-phone', { headers: key(keyB), body: { name: 'worker phone', device_id: 'dev-1', url: simUrl } });
    expect(first.status).toBe(201);
    const replacedToken = credential('worker token B1 (register-phone, replaced)', first.body.worker_token, 'token');
    const again = await api('POST', '/smsapi/register-phone?api_key=' + keyB, { body: { name: 'worker phone', device_id: 'dev-1', url: simUrl } });
    expect(again.status).toBe(201);
    const tokenB = credential('worker token B2 (register-phone via ?api_key=)', again.body.worker_token, 'token');

    // ---- create-task with the key in the header and in the query string; the worker process delivers B's.
    stack.startWorker(tokenB);
    const byHeader = await api('POST', '/smsapi/create-task', { headers: key(keyB), body: SMS });
    expect(byHeader.status).toBe(201);
    const byQuery = await api('POST', `/smsapi/create-task?api_key=${keyB}`, { body: { ...SMS, message: 'by query string' } });
    expect(byQuery.status).toBe(201);
    for (const id of [byHeader.body.id, byQuery.body.id]) {
      await eventually(async () => {
        const task = await api('GET', `/smsapi/tasks/${id}?api_key=${keyB}`);
        expect(task.body.status).toBe('sent');
      }, { timeoutMs: 30_000, intervalMs: 300 });
    }

    // ---- The worker API by hand with A's token: poll, report sent and failed, inbound.
    const a1 = await api('POST', '/smsapi/create-task', { headers: key(keyA), body: SMS });
    expect(a1.status).toBe(201);
    const a2 = await api('POST', `/smsapi/create-task?api_key=${keyA}`, { body: { ...SMS, message: 'second for A' } });
    expect(a2.status).toBe(201);
    const claimed1 = await api('GET', '/smsapi/pending-tasks', { headers: token(tokenA) });
    const claimed2 = await api('GET', '/smsapi/pending-tasks?wait=1', { headers: token(tokenA) });
    expect([claimed1.body.id, claimed2.body.id].sort()).toEqual([a1.body.id, a2.body.id].sort());
    expect((await api('POST', '/smsapi/task-status', { headers: token(tokenA), body: { id: claimed1.body.id, status: 'sent' } })).status).toBe(200);
    expect((await api('POST', '/smsapi/task-status', { headers: token(tokenA), body: { id: claimed2.body.id, status: 'failed', error: 'no signal' } })).status).toBe(200);
    expect((await api('POST', '/smsapi/task-status', { headers: token(tokenA), body: { id: claimed2.body.id, status: 'sent' } })).status).toBe(409);
    expect((await api('POST', '/smsapi/inbound', { headers: token(tokenA), body: { from: '+381641234567', message: 'reply', external_id: 'in-1' } })).status).toBe(201);

    // ---- Refused credentials: none of these answers may echo what was presented.
    const garbageKey = secret('garbage key', `smsq_key_${randomBytes(19).toString('hex')}`);
    const typoKey = secret('mistyped key A', mistyped(keyA));
    const typoToken = secret('mistyped worker token A', mistyped(tokenA));
    for (const presented of [revokedKey.api_key, typoKey, garbageKey]) {
      expect((await api('POST', '/smsapi/create-task', { headers: key(presented), body: SMS })).status).toBe(401);
      expect((await api('POST', `/smsapi/create-task?api_key=${encodeURIComponent(presented)}`, { body: SMS })).status).toBe(401);
      expect((await api('GET', `/smsapi/tasks/${a1.body.id}?api_key=${encodeURIComponent(presented)}`)).status).toBe(401);
      expect((await api('POST', '/smsapi/register-phone', { headers: key(presented), body: { name: 'x' } })).status).toBe(401);
    }
    for (const presented of [revokedToken, replacedToken, typoToken]) {
      expect((await api('GET', '/smsapi/pending-tasks', { headers: token(presented) })).status).toBe(401);
      expect((await api('POST', '/smsapi/task-status', { headers: token(presented), body: { id: a1.body.id, status: 'sent' } })).status).toBe(401);
      expect((await api('POST', '/smsapi/inbound', { headers: token(presented), body: { from: '+381641234567', message: 'x' } })).status).toBe(401);
    }
    // A token on a client path, a key on a worker path.
    expect((await api('POST', '/smsapi/create-task', { headers: key(tokenA), body: SMS })).status).toBe(401);
    expect((await api('GET', `/smsapi/tasks/${a1.body.id}?api_key=${tokenA}`)).status).toBe(401);
    expect((await api('GET', '/smsapi/pending-tasks', { headers: token(keyA) })).status).toBe(401);
    // A good key on answers that fail for another reason: the query string must not come back in them.
    expect((await api('POST', `/smsapi/create-task?api_key=${keyA}`, { body: { recipient: 'not a number', message: 'x' } })).status).toBe(400);
    expect((await api('POST', `/smsapi/create-task?api_key=${keyA}`, { rawBody: '{"recipient": ' })).status).toBe(400);
    expect((await api('GET', `/smsapi/create-task?api_key=${keyA}`)).status).toBe(405);
    expect((await api('GET', `/smsapi/no-such-path?api_key=${keyA}`)).status).toBe(404);
    expect((await api('GET', `/smsapi/tasks/999999?api_key=${keyA}`)).status).toBe(404);

    // ---- Dashboard: sign-up, a key of its own, sign-out, a wrong password, sign-in.
    const email = `secrets-${randomBytes(4).toString('hex')}@example.com`;
    const userPassword = secret('dashboard user password', password());
    const user = browser();
    expect((await user.send('POST', '/api/auth/signup', { email, password: userPassword })).status).toBe(201);
    rememberSession('dashboard session (sign-up)', user);
    const dashKey = await user.send('POST', '/api/keys');
    expect(dashKey.status).toBe(201);
    credential('API key (dashboard)', dashKey.body.apiKey, 'key');
    expect((await api('GET', '/smsapi/tasks/999999', { headers: key(dashKey.body.apiKey) })).status).toBe(404);
    expect((await user.send('POST', '/api/auth/signout')).status).toBe(204);

    const wrongPassword = secret('wrong password', password());
    const stranger = browser();
    expect((await stranger.send('POST', '/api/auth/signin', { email, password: wrongPassword })).status).toBe(401);
    expect((await stranger.send('POST', '/api/auth/signin', { email: `nobody-${email}`, password: wrongPassword })).status).toBe(401);
    expect((await stranger.send('POST', '/api/auth/signup', { email, password: secret('password of a taken address', password()) })).status).toBe(409);
    expect((await stranger.send('POST', '/api/auth/signup', { email: `short-${email}`, password: secret('too short password', `s${randomBytes(4).toString('hex')}`) })).status).toBe(400);
    expect((await stranger.send('POST', '/api/auth/signin', { email, password: userPassword })).status).toBe(200);
    rememberSession('dashboard session (sign-in)', stranger);

    // ---- Admin with a password (command line code), a refused one, then the admin's dashboard.
    const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.com`;
    const adminPassword = secret('admin password', password());
    await stack.adminOk('admin', 'create', '--email', adminEmail, '--password', adminPassword);
    const refusedAdmin = await stack.admin('admin', 'create', '--email', `b-${adminEmail}`, '--password', secret('refused admin password', `s${randomBytes(4).toString('hex')}`));
    expect(refusedAdmin.exitCode).not.toBe(0);
    errorBodies.push({ where: 'admin create (refused password)', text: JSON.stringify(refusedAdmin.output) });
    const duplicateAdmin = await stack.admin('admin', 'create', '--email', adminEmail, '--password', secret('password of a taken admin address', password()));
    expect(duplicateAdmin.exitCode).not.toBe(0);
    errorBodies.push({ where: 'admin create (taken address)', text: JSON.stringify(duplicateAdmin.output) });

    const admin = browser();
    expect((await admin.send('POST', '/api/auth/signin', { email: adminEmail, password: adminPassword })).status).toBe(200);
    rememberSession('dashboard admin session', admin);
    const clientEmail = `client-${randomBytes(4).toString('hex')}@example.com`;
    const clientPassword = secret('password of an admin-made client', password());
    const made = await admin.send('POST', '/api/admin/clients', { name: 'made by admin', email: clientEmail, password: clientPassword });
    expect(made.status).toBe(201);
    const madeId = made.body.id ?? made.body.clientId;
    const adminKey = await admin.send('POST', `/api/admin/clients/${madeId}/keys`);
    expect(adminKey.status).toBe(201);
    credential('API key (dashboard admin)', adminKey.body.apiKey, 'key');
    const adminToken = await admin.send('POST', '/api/admin/worker-tokens', { phoneId: phoneA.phone_id });
    expect(adminToken.status).toBe(201);
    credential('worker token (dashboard admin)', adminToken.body.workerToken, 'token');
    expect((await api('GET', '/smsapi/pending-tasks', { headers: token(adminToken.body.workerToken) })).status).toBe(200);
    expect((await admin.send('POST', '/api/admin/clients', { name: 'bad', email: `bad-${clientEmail}`, password: secret('too short admin-made password', `s${randomBytes(4).toString('hex')}`) })).status).toBe(400);
    const madeClient = browser();
    expect((await madeClient.send('POST', '/api/auth/signin', { email: clientEmail, password: clientPassword })).status).toBe(200);
    rememberSession('dashboard session (admin-made client)', madeClient);

    // Let the worker flush what it logs, then search.
    await stack.kill('worker', 'SIGTERM');

    // ---- (1) The logs of every service process.
    const logs: Haystack[] = SERVICES.flatMap((service) => stack.logsOf(service).map((line, index) => ({ where: `log ${service}#${index}`, text: line })));
    for (const service of SERVICES) expect(stack.logsOf(service).length, `${service} logged nothing: is its output kept?`).toBeGreaterThan(0);
    // The run's own events are in them, so the search covers what happened after start-up too.
    expect(stack.logsOf('worker').join('\n')).toContain('"event":"reported"');
    expect(stack.logsOf('gateway-sim').join('\n')).toMatch(/task \d+ to \+381641234567: sent/);
    expect(stack.logsOf('inbox').join('\n')).toContain('stored 1 inbound message(s)');

    // ---- (2) Every error body.
    expect(errorBodies.length).toBeGreaterThanOrEqual(35);

    // The services' own database passwords are derived, never stored; asking again yields the same ones.
    for (const schema of SCHEMAS) {
      const runtimeUrl = new URL(await ensureServiceRole(stack.env['DATABASE_URL']!, schema));
      secret(`database password of ${schema}`, decodeURIComponent(runtimeUrl.password));
    }

    // ---- (3) Every row of every table; the hashes are there, so this is the right data.
    const database = await dumpDatabase(stack.env['DATABASE_URL']!, SCHEMAS);
    for (const schema of SCHEMAS) expect(database.tables.some((table) => table.startsWith(`${schema}.`)), `no table in ${schema}`).toBe(true);
    const apiKeyRows = database.rows.filter((row) => row.where === 'db gateway.api_keys').map((row) => row.text).join('\n');
    const tokenRows = database.rows.filter((row) => row.where === 'db gateway.worker_tokens').map((row) => row.text).join('\n');
    for (const raw of apiKeys) expect(apiKeyRows, `hash of ${raw.slice(0, VISIBLE_PREFIX)}… in gateway.api_keys`).toContain(`"hash":"${sha256(raw)}"`);
    for (const raw of workerTokens) expect(tokenRows, `hash of ${raw.slice(0, VISIBLE_PREFIX)}… in gateway.worker_tokens`).toContain(`"hash":"${sha256(raw)}"`);
    const userRows = database.rows.filter((row) => row.where === 'db dashboard.users').map((row) => row.text).join('\n');
    for (const address of [email, adminEmail, clientEmail]) expect(userRows).toContain(address);
    expect(userRows).toMatch(/\$2[aby]\$12\$/);

    // ---- (4) Every key under the stack's Redis namespace; the live sessions are there, under hashed ids.
    const redis = await dumpRedis(stack.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', stack.env['SMSQ_NAMESPACE']!);
    const redisKeys = redis.map((entry) => entry.where).join('\n');
    for (const id of sessionIds.slice(1)) expect(redisKeys, 'a live session under its hashed id').toContain(`session:${sha256(id)}`);

    const summary = `${secrets.size} secrets; ${logs.length} log lines, ${errorBodies.length} error bodies, ${database.rows.length} rows of ${database.tables.length} tables, ${redis.length} Redis keys`;
    console.log(summary);
    const report = (leaks: ReturnType<typeof findLeaks>) => leaks.map((leak) => `${leak.secret} in ${leak.where}: …${leak.excerpt}…`).join('\n');
    expect.soft(report(findLeaks(secrets, logs)), 'secrets in the service logs').toBe('');
    expect.soft(report(findLeaks(secrets, errorBodies)), 'secrets in error bodies').toBe('');
    expect.soft(report(findLeaks(secrets, database.rows)), 'secrets in the database').toBe('');
    expect.soft(report(findLeaks(secrets, redis)), 'secrets in Redis').toBe('');
  });
});
