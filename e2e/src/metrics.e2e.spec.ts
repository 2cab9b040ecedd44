import { eventually } from '@smsq/testing';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertRules,
  ALERTS_FILE,
  dashboardExpressions,
  familyOf,
  histogramSeriesLabels,
  metricNamesIn,
  PROMETHEUS_FILE,
  sampleSum,
  scrape,
  scrapeText,
  type PrometheusFamily,
} from './support/monitoring.js';
import { Stack } from './support/stack.js';
import { clientWithPairedPhone } from './support/worker-api.js';

const run = promisify(execFile);
const SMS = { recipient: '+381641234567', message: 'metrics' };

/** promtool (Debian's `prometheus` package) where it is installed: a second opinion, never the only one. */
async function promtool(...args: string[]): Promise<{ found: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run('promtool', args);
    return { found: true, output: stdout + stderr };
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (failure.code === 'ENOENT') return { found: false, output: '' };
    throw new Error(`promtool ${args.join(' ')} failed:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
}

describe('/metrics answers the operator’s questions, Profile A', () => {
  let stack: Stack;
  let receiver: Server;
  let receiverUrl: string;
  let dashboardUrl: string;
  let metricsUrls: Record<string, string>;

  beforeAll(async () => {
    // task.sent is taken, task.failed refused, so both outcomes of a webhook delivery show.
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => void response.writeHead((JSON.parse(body) as { type: string }).type === 'task.sent' ? 204 : 500).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
    stack = await Stack.start({ profile: 'A', env: { SMSQ_CLAIM_TIMEOUT_S: '2', SMSQ_MAX_ATTEMPTS: '2', SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    dashboardUrl = await stack.startDashboard();
    await stack.startSmpp();
    metricsUrls = {
      gateway: `${stack.baseUrl}/metrics`,
      billing: `http://127.0.0.1:${stack.env['BILLING_PORT']}/metrics`,
      dispatch: `http://127.0.0.1:${stack.env['DISPATCH_PORT']}/metrics`,
      inbox: `http://127.0.0.1:${stack.env['INBOX_PORT']}/metrics`,
      smpp: `http://127.0.0.1:${stack.env['SMPP_HTTP_PORT']}/metrics`,
      dashboard: `${dashboardUrl}/metrics`,
    };
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const scrapeAll = async (): Promise<Record<string, PrometheusFamily[]>> =>
    Object.fromEntries(await Promise.all(Object.entries(metricsUrls).map(async ([service, url]) => [service, await scrape(url)] as const)));

  it('counts created, claimed, sent, failed, refunded and expired tasks, lease expiries and webhook deliveries once each, where they happen', async () => {
    const client = await clientWithPairedPhone(stack, { bonusCredits: 10 });
    const taskOf = async (id: number) => (await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } })).body;
    const hook = await stack.http('POST', '/smsapi/webhooks', { headers: { 'x-api-key': client.apiKey }, body: { url: receiverUrl, events: ['task.sent', 'task.failed'] } });
    expect(hook.status).toBe(201);

    const sent = (await stack.createTask(client.apiKey, SMS)).body.id as number;
    const failed = (await stack.createTask(client.apiKey, SMS)).body.id as number;
    const lapsed = (await stack.createTask(client.apiKey, SMS)).body.id as number;
    // A retried create (same Idempotency-Key) is the same task: it must not count again.
    const retried = await stack.createTask(client.apiKey, SMS, { 'idempotency-key': 'metrics-once' });
    expect((await stack.createTask(client.apiKey, SMS, { 'idempotency-key': 'metrics-once' })).body.id).toBe(retried.body.id);
    await stack.http('POST', `/smsapi/tasks/${retried.body.id}/cancel`, { headers: { 'x-api-key': client.apiKey } });

    // Each claimed just before its reports: a claim holds 2 s, which a busy machine could spend on a few requests.
    expect((await client.worker.poll()).body.id).toBe(sent);
    expect((await client.worker.report(sent, 'sent')).status).toBe(200);
    expect((await client.worker.report(sent, 'sent')).status).toBe(200);
    expect((await client.worker.poll()).body.id).toBe(failed);
    expect((await client.worker.report(failed, 'failed', 'no signal')).status).toBe(200);
    expect((await client.worker.report(failed, 'failed', 'no signal')).status).toBe(200);
    expect((await client.worker.poll()).body.id).toBe(lapsed);

    const expiring = (await stack.createTask(client.apiKey, { ...SMS, ttl: 1 })).body.id as number;
    await eventually(async () => expect(await taskOf(expiring)).toMatchObject({ status: 'failed', error: 'expired' }), { timeoutMs: 15_000, intervalMs: 200 });
    // The unreported claim lapses after 2 s and the task is due again: its second claim is reported.
    await eventually(async () => expect((await client.worker.poll()).body.id).toBe(lapsed), { timeoutMs: 15_000, intervalMs: 250 });
    expect((await client.worker.report(lapsed, 'sent')).status).toBe(200);
    const waiting = (await stack.createTask(client.apiKey, SMS)).body.id as number;

    await eventually(
      async () => {
        const { dispatch, billing } = await scrapeAll();
        expect(sampleSum(dispatch!, 'smsq_tasks_created_total')).toBe(6);
        expect(sampleSum(dispatch!, 'smsq_tasks_claimed_total')).toBe(4);
        expect(sampleSum(dispatch!, 'smsq_tasks_sent_total')).toBe(2);
        expect(sampleSum(dispatch!, 'smsq_tasks_failed_total', { reason: 'reported' })).toBe(1);
        expect(sampleSum(dispatch!, 'smsq_tasks_failed_total', { reason: 'expired' })).toBe(1);
        expect(sampleSum(dispatch!, 'smsq_tasks_failed_total', { reason: 'cancelled' })).toBe(1);
        expect(sampleSum(dispatch!, 'smsq_tasks_failed_total', { reason: 'attempts_exhausted' })).toBe(0);
        expect(sampleSum(dispatch!, 'smsq_tasks_expired_total')).toBe(1);
        expect(sampleSum(dispatch!, 'smsq_claim_lease_expiries_total', { outcome: 'returned' })).toBe(1);
        expect(sampleSum(dispatch!, 'smsq_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
        expect(sampleSum(dispatch!, 'smsq_webhook_deliveries_total', { outcome: 'http_error' })).toBeGreaterThanOrEqual(1);
        expect(sampleSum(billing!, 'smsq_tasks_refunded_total', { reason: 'task_failed' })).toBe(1);
        expect(sampleSum(billing!, 'smsq_tasks_refunded_total', { reason: 'task_expired' })).toBe(1);
        expect(sampleSum(billing!, 'smsq_tasks_refunded_total', { reason: 'task_cancelled' })).toBe(1);
        expect(sampleSum(billing!, 'smsq_tasks_refunded_total')).toBe(3);
        // The one task left is due; its phone polled moments ago.
        expect(sampleSum(dispatch!, 'smsq_tasks_due')).toBe(1);
        expect(sampleSum(dispatch!, 'smsq_tasks_due_oldest_age_seconds')).toBeLessThan(60);
        const lastPoll = sampleSum(dispatch!, 'smsq_phone_last_poll_timestamp_seconds', { phone_id: String(client.phoneId), kind: 'own' });
        expect(Math.abs(Date.now() / 1000 - lastPoll)).toBeLessThan(120);
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    );
    expect(await taskOf(waiting)).toMatchObject({ status: 'pending' });

    const families = await scrapeAll();
    // Each event is counted by the one service where it happens, so every service summed counts it once.
    for (const name of ['smsq_tasks_created_total', 'smsq_tasks_refunded_total']) {
      expect(Object.entries(families).filter(([, service]) => service.some((family) => family.name === name)).map(([service]) => service)).toHaveLength(1);
    }
    for (const sample of families['dispatch']!.find((family) => family.name === 'smsq_tasks_created_total')!.metrics) {
      expect(sample.labels).toMatchObject({ service: 'dispatch', profile: 'A' });
    }
  });

  it('times HTTP requests by route template and status, and broker requests by pattern', async () => {
    const client = await stack.newClient();
    await stack.http('GET', '/smsapi/tasks/987654', { headers: { 'x-api-key': client.apiKey } });
    await stack.http('GET', '/no/such/path');
    const gateway = await scrapeText(metricsUrls['gateway']!);
    const families = await scrape(metricsUrls['gateway']!);
    expect(families.find((family) => family.name === 'smsq_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    const routes = histogramSeriesLabels(gateway, 'smsq_http_request_duration_seconds');
    expect(routes).toContainEqual(expect.objectContaining({ method: 'GET', route: '/smsapi/tasks/:id', status: '404', service: 'gateway', profile: 'A' }));
    expect(routes).toContainEqual(expect.objectContaining({ route: 'unmatched', status: '404' }));
    expect(routes.filter((labels) => /\d{3,}|no\/such/.test(labels['route'] ?? ''))).toEqual([]);
    expect(histogramSeriesLabels(await scrapeText(metricsUrls['dashboard']!), 'smsq_http_request_duration_seconds')).toContainEqual(
      expect.objectContaining({ service: 'dashboard', route: '/healthz', status: '200' }),
    );

    expect(families.find((family) => family.name === 'smsq_broker_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(histogramSeriesLabels(gateway, 'smsq_broker_request_duration_seconds')).toContainEqual(
      expect.objectContaining({ service: 'gateway', pattern: 'dispatch.task.get.v1', outcome: 'refused' }),
    );
  });

  it('shows every metric the Grafana dashboard and the alert rules read, and the rules are well formed', async () => {
    const everywhere = Object.values(await scrapeAll()).flat();
    const rules = alertRules();
    expect(rules.map((rule) => rule.alert)).toEqual(expect.arrayContaining(['SmsqServiceDown', 'SmsqBacklogGrowing', 'SmsqOldestDueTaskTooOld', 'SmsqPhoneSilent', 'SmsqRefundsSpiking']));
    for (const rule of rules) {
      expect(rule, rule.alert).toMatchObject({ alert: expect.stringMatching(/^Smsq[A-Za-z]+$/), expr: expect.any(String), labels: { severity: expect.stringMatching(/^(critical|warning|info)$/) } });
      expect(rule.annotations?.['summary'], rule.alert).toEqual(expect.any(String));
      if (rule.for !== undefined) expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
    }
    const uses = [
      ...dashboardExpressions().map(({ where, expr }) => ({ where: `dashboard ${where}`, expr })),
      ...rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
    ];
    const names = uses.flatMap(({ where, expr }) => metricNamesIn(expr).map((name) => ({ where, name })));
    expect(new Set(names.map(({ name }) => name)).size).toBeGreaterThan(10);
    const missing = names.filter(({ name }) => !familyOf(name, everywhere)).map(({ where, name }) => `${name} (${where})`);
    expect(missing).toEqual([]);

    const rulesChecked = await promtool('check', 'rules', ALERTS_FILE);
    if (rulesChecked.found) expect(rulesChecked.output).toContain('SUCCESS');
    const configChecked = await promtool('check', 'config', PROMETHEUS_FILE);
    if (configChecked.found) expect(configChecked.output).toContain('SUCCESS');
  });
});
