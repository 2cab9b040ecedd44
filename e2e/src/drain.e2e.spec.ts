import { Patterns, type DebitResult } from '@smsq/contracts';
import { queueName } from '@smsq/platform';
import { eventually, TEST_SERVER_URL } from '@smsq/testing';
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, type HttpAnswer, type ServiceName } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'in flight at shutdown' };
/** How long a drained service may take to exit once signalled. */
const EXIT_WITHIN_MS = 15_000;

/** Sends SIGTERM and resolves with the exit code and how long the process took to exit. */
async function terminate(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; tookMs: number }> {
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const startedAt = Date.now();
  child.kill('SIGTERM');
  const [code, signal] = await exited;
  return { code, signal, tookMs: Date.now() - startedAt };
}

/** The sum of the samples of one metric a service shows on /metrics, those whose labels include `labels` only when given. */
async function metricValue(metricsUrl: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** How many broker messages of `pattern` a service has handled, from its /metrics. */
const handledCount = (metricsUrl: string, pattern: string) => metricValue(metricsUrl, 'smsq_messages_handled_total', `pattern="${pattern}"`);

describe('graceful shutdown', () => {
  let stack: Stack;
  let connection: ChannelModel;
  let channel: Channel;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', env: { SMSQ_SETTLE_AFTER_S: '2' } });
    connection = await amqplib.connect(stack.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672');
    channel = await connection.createChannel();
  });

  afterAll(async () => {
    await connection?.close();
    await stack?.stop();
  });

  function processOf(service: ServiceName): ChildProcess {
    const child = stack.processOf(service);
    if (!child) throw new Error(`${service} is not running`);
    return child;
  }

  async function relaunch(service: ServiceName): Promise<void> {
    stack.launch(service);
    await stack.waitUntilReady();
  }

  it('the gateway answers a waiting long poll at once with {} and exits 0 instead of holding the shutdown', async () => {
    const client = await stack.newClient({ phone: false });
    const phone = await registerPhone(stack, client.apiKey, { name: 'idle phone', device_id: 'idle' });
    const dispatchMetrics = `http://127.0.0.1:${stack.env['DISPATCH_PORT']}/metrics`;
    const claimsBefore = await handledCount(dispatchMetrics, Patterns.dispatch.taskClaim);

    const poll = workerApi(stack, phone.body.worker_token).poll(25);
    // Its claim found nothing, so the poll is now waiting for a task to come due.
    await eventually(async () => expect(await handledCount(dispatchMetrics, Patterns.dispatch.taskClaim)).toBeGreaterThan(claimsBefore), { intervalMs: 20 });
    const pollStartedAt = Date.now();
    const exit = await terminate(processOf('api-gateway'));
    const answer = await poll;

    // Well short of the poll's 25 s wait, which a shutdown holding it would take; not tighter, as a busy machine takes a
    // few seconds to close the gateway's connections.
    expect(answer).toMatchObject({ status: 200, body: {} });
    expect(Date.now() - pollStartedAt).toBeLessThan(12_500);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.tookMs).toBeLessThan(12_500);
    await relaunch('api-gateway');
  });

  it('the gateway answers every create-task in flight at SIGTERM, exits 0, and every 201 is a stored task charged once', async () => {
    const client = await stack.newClient({ plan: 'starter' });
    const before = await stack.credits(client.clientId);
    const billing = processOf('billing');
    const gatewayMetrics = `${stack.baseUrl}/metrics`;
    const sentBefore = await metricValue(gatewayMetrics, 'smsq_task_create_batch_size_sum');
    // Billing stopped: every batch of creates waits in dispatch for its debits, and the creates that came meanwhile wait in the gateway.
    billing.kill('SIGSTOP');
    const outcomes: Array<Promise<HttpAnswer | Error>> = [];
    try {
      for (let i = 0; i < 40; i++) outcomes.push(stack.createTask(client.apiKey, { ...SMS, message: `${SMS.message} #${i}` }).catch((error: Error) => error));
      // All 40 reached the gateway: some went on to dispatch in the batches it allows in flight, the rest wait for the next batch.
      const reached = async () =>
        (await metricValue(gatewayMetrics, 'smsq_task_create_batch_size_sum')) - sentBefore + (await metricValue(gatewayMetrics, 'smsq_task_creates_waiting'));
      await eventually(async () => expect(await reached()).toBe(40), { timeoutMs: 15_000, intervalMs: 20 });
      expect(await metricValue(gatewayMetrics, 'smsq_task_creates_waiting')).toBeGreaterThan(0);

      const gateway = processOf('api-gateway');
      const exited = once(gateway, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const signalledAt = Date.now();
      gateway.kill('SIGTERM');
      // The gateway no longer takes requests, while the 40 are still unanswered.
      await eventually(async () => expect((await fetch(`${stack.baseUrl}/readyz`).catch(() => ({ status: 0 }))).status).not.toBe(200), { intervalMs: 20 });
      billing.kill('SIGCONT');

      const answers = await Promise.all(outcomes);
      const [code, signal] = await exited;

      expect(answers.filter((answer) => answer instanceof Error)).toEqual([]);
      for (const answer of answers as HttpAnswer[]) {
        if (answer.status !== 201) expect(answer.body, `status ${answer.status}`).toMatchObject({ error: expect.any(String), detail: expect.any(String) });
      }
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(EXIT_WITHIN_MS);

      await relaunch('api-gateway');
      const created = (answers as HttpAnswer[]).filter((answer) => answer.status === 201);
      expect(created.length).toBeGreaterThan(0);
      for (const answer of created) {
        const task = await stack.http('GET', `/smsapi/tasks/${answer.body.id}`, { headers: { 'x-api-key': client.apiKey } });
        expect(task.status).toBe(200);
      }
      // What was not created is refunded once billing settles it; what was, stays charged exactly once.
      await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before - created.length), { timeoutMs: 20_000, intervalMs: 250 });
    } finally {
      billing.kill('SIGCONT');
      if (stack.pidOf('api-gateway') === undefined) await relaunch('api-gateway');
    }
  });

  it('billing stops consuming on SIGTERM, finishes the debit it is handling, and leaves later messages queued for the next start', async () => {
    const client = await stack.newClient();
    const before = await stack.credits(client.clientId);
    const { billing } = stack.serviceClients();
    const database = new pg.Client({ connectionString: `${TEST_SERVER_URL}/${stack.env['DATABASE_URL']!.split('/').pop()}` });
    await database.connect();
    try {
      // Holding the account's row lock keeps billing's debit for this client inside its handler.
      await database.query('BEGIN');
      await database.query('SELECT 1 FROM billing.accounts WHERE client_id = $1 FOR UPDATE', [client.clientId]);
      const debit = billing.send<DebitResult>(Patterns.billing.debit, { taskKey: randomUUID(), clientId: client.clientId, deadline: new Date(Date.now() + 60_000).toISOString() }, { timeoutMs: 30_000 });
      await eventually(async () => {
        const { rows } = await database.query("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        expect(rows[0].waiting).toBeGreaterThan(0);
      }, { intervalMs: 20 });
      let debitAnswered = false;
      void debit.finally(() => (debitAnswered = true)).catch(() => undefined);

      const child = processOf('billing');
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      child.kill('SIGTERM');
      await eventually(() => expect(stack.logsOf('billing').some((line) => line.includes('broker message(s) in hand'))).toBe(true), { intervalMs: 20 });
      // Sent after the signal: billing must leave it in the queue, not take it and drop it.
      const later = billing.send(Patterns.billing.accountShow, { clientId: client.clientId }, { timeoutMs: 30_000 });
      await eventually(async () => expect((await channel.checkQueue(queueName(stack.env['SMSQ_NAMESPACE']!, 'billing'))).messageCount).toBe(1), { intervalMs: 20 });
      expect(debitAnswered).toBe(false);

      await database.query('COMMIT');

      await expect(debit).resolves.toMatchObject({ creditsRemaining: before - 1 });
      expect(await exited).toEqual([0, null]);
      expect((await channel.checkQueue(queueName(stack.env['SMSQ_NAMESPACE']!, 'billing'))).messageCount).toBe(1);

      await relaunch('billing');
      await expect(later).resolves.toMatchObject({ clientId: client.clientId, creditsRemaining: before - 1 });
    } finally {
      await database.end();
      if (stack.pidOf('billing') === undefined) await relaunch('billing');
    }
  });

  it('the reference worker on SIGTERM finishes the delivery in hand, reports it, and exits 0', async () => {
    let releaseSend: (() => void) | undefined;
    let phoneServer: Server | undefined;
    const sendArrived = new Promise<void>((arrived) => {
      phoneServer = createServer((request: IncomingMessage, response: ServerResponse) => {
        request.resume();
        arrived();
        releaseSend = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"message_id":"m-1"}');
      });
    });
    await new Promise<void>((listening) => phoneServer!.listen(0, '127.0.0.1', listening));
    try {
      const client = await stack.newClient({ phone: false });
      const phone = await registerPhone(stack, client.apiKey, { name: 'slow phone', device_id: 'slow', url: `http://127.0.0.1:${(phoneServer!.address() as AddressInfo).port}` });
      const created = await stack.createTask(client.apiKey, SMS);
      expect(created.status).toBe(201);
      stack.startWorker(phone.body.worker_token);
      await sendArrived;

      const exit = terminate(processOf('worker'));
      await eventually(() => expect(stack.logsOf('worker').some((line) => line.includes('signal received'))).toBe(true), { intervalMs: 20 });
      releaseSend!();

      expect(await exit).toMatchObject({ code: 0, signal: null });
      const task = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(task.body).toMatchObject({ status: 'sent' });
    } finally {
      phoneServer?.closeAllConnections();
      phoneServer?.close();
    }
  });
});
