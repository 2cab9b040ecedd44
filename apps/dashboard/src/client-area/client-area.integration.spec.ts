import { InvalidRequestError, NotFoundError, Patterns, type ConversationView, type InboxMessageView, type PhoneDetails, type SmppCredentialView, type TaskView } from '@smsq/contracts';
import { SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from '../testing/dashboard-harness.js';
import type { TestBrowser } from '../testing/test-browser.js';
import { ClientAreaController } from './client-area.controller.js';
import { OUTGOING_MESSAGE_MAX_LENGTH } from './dto/send.body.js';

function task(id: number, clientId: number, status: TaskView['status'] = 'failed'): TaskView {
  return { id, clientId, phoneId: 7, firstPhoneId: 7, recipient: '+381641234567', message: 'hello', status, scheduledAt: '2026-11-22 10:00:00', attempts: 1, sentAt: null, deliveredAt: null, failedAt: '2026-11-22T09:01:00.000Z', error: 'no signal', expiresAt: null, createdAt: '2026-11-22T09:00:00.000Z', segments: 1, encrypted: false, priority: 'normal', reroutedBecause: null };
}

/** docs/guide/encryption.md's first test vector: a message sealed with the client's passphrase, as smsq stores it. */
const SEALED = SEALED_MESSAGE_TEST_VECTORS[0]!.sealed;

function phone(id: number, clientId: number): PhoneDetails {
  return { id, kind: 'own', clientId, name: `phone ${id}`, url: null, deviceId: null, active: true, createdAt: '2026-11-22T09:00:00.000Z', lastSeenAt: null, health: null, lastAssignedAt: null, sentToday: 3, state: 'online', lastContactAt: '2026-11-22T09:00:00.000Z', dailyLimit: null, perMinute: null, monthlyRecipients: null, jitter: null, sims: 1, partsToday: 4, recipientsThisMonth: 2, pausedUntil: null, pauseReason: null, waitingTasks: 0, number: null };
}

/** What the page shows of a phone's limits and their counts, as `phone()` makes them. */
const NO_LIMITS = { dailyLimit: null, perMinute: null, monthlyRecipients: null, jitter: null, sims: 1, partsToday: 4, recipientsThisMonth: 2, pausedUntil: null, pauseReason: null };

/** A client user reaches only its own client's rows: every call carries its client id, and another client's ids are 404. */
describe(ClientAreaController.name, () => {
  let dashboard: TestDashboard;
  let alice: TestBrowser;
  let aliceClient: number;
  let bobClient: number;
  // Rows of both clients as the services hold them; the fakes enforce ownership as the real ones do.
  const tasks = new Map<number, TaskView>();
  const phones = new Map<number, PhoneDetails>();
  const keys = new Map<number, number>();

  beforeAll(async () => {
    dashboard = await startTestDashboard('dashboard_client_area');
    alice = dashboard.browser();
    aliceClient = (await alice.signUp(`alice-${Date.now()}@example.test`)).body.user.clientId;
    const bob = dashboard.browser();
    bobClient = (await bob.signUp(`bob-${Date.now()}@example.test`)).body.user.clientId;
    tasks.set(1, task(1, aliceClient)).set(2, task(2, bobClient));
    phones.set(11, phone(11, aliceClient)).set(12, phone(12, bobClient));
    phones.set(13, { ...phone(13, aliceClient), lastSeenAt: '2026-11-22T11:04:05.000Z', health: { batteryPercent: 81, charging: true, connection: 'wifi', reportedAt: '2026-11-22T11:03:00.000Z' } });
    keys.set(21, aliceClient).set(22, bobClient);
    const owned = <T extends { clientId: number | null }>(row: T | undefined, clientId: number, what: string): T => {
      if (!row || row.clientId !== clientId) throw new NotFoundError(what);
      return row;
    };
    const { dispatch, gateway, inbox } = dashboard.services;
    dispatch
      .on(Patterns.dispatch.taskGet, ({ clientId, id }) => owned(tasks.get(id), clientId, 'task'))
      .on(Patterns.dispatch.taskList, ({ clientId, page, pageSize }) => {
        const items = [...tasks.values()].filter((row) => row.clientId === clientId);
        return { items, total: items.length, page, pageSize };
      })
      .on(Patterns.dispatch.taskResend, ({ clientId, id }) => {
        owned(tasks.get(id), clientId, 'task');
        return { task: task(100 + id, clientId, 'pending'), creditsRemaining: 29 };
      })
      .on(Patterns.dispatch.phoneList, ({ clientId }) => [...phones.values()].filter((row) => row.clientId === clientId))
      .on(Patterns.dispatch.phoneRename, ({ clientId, phoneId, name }) => {
        owned(phones.get(phoneId), clientId, 'phone').name = name;
        return { ok: true };
      })
      .on(Patterns.dispatch.phoneSetActive, ({ clientId, phoneId, active }) => {
        owned(phones.get(phoneId), clientId, 'phone').active = active;
        return { ok: true };
      })
      .on(Patterns.dispatch.phoneSetLimits, (command) => {
        const row = owned(phones.get(command.phoneId), command.clientId, 'phone');
        for (const field of ['dailyLimit', 'perMinute', 'monthlyRecipients', 'jitter', 'sims'] as const) if (field in command) Object.assign(row, { [field]: command[field] });
        return row;
      })
      .on(Patterns.dispatch.phoneResume, ({ clientId, phoneId, kind }) => {
        const row = owned(phones.get(phoneId), clientId, 'phone');
        if (kind !== 'own') throw new NotFoundError('phone');
        Object.assign(row, { pausedUntil: null, pauseReason: null });
        return row;
      })
      .on(Patterns.dispatch.taskDailyStats, ({ days }) => Array.from({ length: days }, (_, index) => ({ day: `2026-11-${String(index + 1).padStart(2, '0')}`, sent: 1, failed: 0, pending: 0 })));
    gateway
      .on(Patterns.gateway.keyList, ({ clientId }) => [...keys].filter(([, owner]) => owner === clientId).map(([id]) => ({ id, clientId, prefix: 'smsq_key_abcd', createdAt: '2026-11-22T09:00:00.000Z', lastUsedAt: null, revokedAt: null })))
      .on(Patterns.gateway.keyCreate, ({ clientId }) => ({ keyId: 30 + clientId, prefix: 'smsq_key_wxyz', apiKey: `smsq_key_raw${clientId}` }))
      .on(Patterns.gateway.keyRevoke, ({ clientId, keyId }) => {
        if (keys.get(keyId) !== clientId) throw new NotFoundError('key');
        return { ok: true };
      });
    const credentials = new Map<number, SmppCredentialView>();
    gateway
      .on(Patterns.gateway.phoneNumberSet, ({ clientId, phoneId, kind, number }) => {
        const row = owned(phones.get(phoneId), clientId, 'phone');
        if (kind !== 'own') throw new NotFoundError('phone');
        if (number !== null && !number.startsWith('+')) throw new InvalidRequestError(`number: ${JSON.stringify(number)} is not a usable phone number`);
        row.number = number;
        return row;
      })
      .on(Patterns.gateway.smppCredentialList, ({ clientId }) => [...credentials.values()].filter((row) => row.clientId === clientId))
      .on(Patterns.gateway.smppCredentialCreate, ({ clientId, systemId, sourceAddresses }) => {
        const id = 40 + credentials.size;
        const row: SmppCredentialView = { id, clientId, systemId: systemId ?? `c${clientId}abcdef`, sourceAddresses: sourceAddresses ?? [], createdAt: '2026-11-22T09:00:00.000Z', lastBoundAt: null, revokedAt: null };
        credentials.set(id, row);
        return { ...row, password: 'q7Rk2mXa' };
      })
      .on(Patterns.gateway.smppCredentialRevoke, ({ clientId, id }) => {
        const row = owned(credentials.get(id), clientId, 'SMPP credential');
        row.revokedAt = '2026-11-22T10:00:00.000Z';
        return row;
      });
    inbox.on(Patterns.inbox.messagesList, ({ page, pageSize }) => ({
      items: [
        { id: 5, clientId: aliceClient, phoneId: 11, from: '+381641111111', message: 'yes', encrypted: false, receivedAt: '2026-11-22T10:00:00.000Z', storedAt: '2026-11-22T10:00:01.000Z' },
        { id: 6, clientId: aliceClient, phoneId: 11, from: '+381641111111', message: SEALED, encrypted: true, receivedAt: '2026-11-22T10:05:00.000Z', storedAt: '2026-11-22T10:05:01.000Z' },
      ] satisfies InboxMessageView[],
      total: 2,
      page,
      pageSize,
    }));
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('shows the overview of the own client: credits and 30 days counted in its time zone', async () => {
    const response = await alice.get('/api/overview');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ clientId: aliceClient, plan: 'free', dailyAllowance: 30, creditsRemaining: 30, periodEndsAt: expect.any(String), timeZone: 'Europe/Belgrade', silentPhones: [] });
    expect(response.body.days).toHaveLength(30);
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.taskDailyStats).at(-1)).toEqual({ clientId: aliceClient, days: 30, timeZone: 'Europe/Belgrade' });
  });

  it('shows its own task, and another client’s task as not found', async () => {
    const own = await alice.get('/api/tasks/1');
    const foreign = await alice.get('/api/tasks/2');
    const nonsense = await alice.get('/api/tasks/abc');

    expect(own.status).toBe(200);
    expect(own.body).toEqual({ ...task(1, aliceClient), timeZone: 'Europe/Belgrade' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'not_found', detail: 'task not found' });
    expect(nonsense.status).toBe(404);
  });

  it('lists tasks with local-day filters turned into instants of the client’s zone', async () => {
    const response = await alice.get('/api/tasks?status=failed&from=2026-11-01&to=2026-11-22&recipient=&page=2');

    expect(response.status).toBe(200);
    expect(response.body.items).toEqual([{ ...task(1, aliceClient), timeZone: 'Europe/Belgrade' }]);
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.taskList).at(-1)).toEqual({
      clientId: aliceClient,
      status: 'failed',
      from: '2026-10-31T23:00:00.000Z',
      to: '2026-11-22T23:00:00.000Z',
      page: 2,
      pageSize: 50,
    });
    expect((await alice.get('/api/tasks?from=22.11.2026')).status).toBe(400);
    expect((await alice.get('/api/tasks?status=lost')).status).toBe(400);
  });

  it('shows an encrypted task as sealed, its parts not known until its phone sends it', async () => {
    tasks.set(3, { ...task(3, aliceClient, 'pending'), message: SEALED, encrypted: true, segments: null, failedAt: null, error: null });
    try {
      const response = await alice.get('/api/tasks/3');

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: 3, message: SEALED, encrypted: true, segments: null });
    } finally {
      tasks.delete(3);
    }
  });

  it('resends its own failed task as a new task with a fresh key, and not another client’s', async () => {
    const own = await alice.send('POST', '/api/tasks/1/resend');
    const foreign = await alice.send('POST', '/api/tasks/2/resend');

    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ id: 101, status: 'pending', clientId: aliceClient, timeZone: 'Europe/Belgrade' });
    expect(foreign.status).toBe(404);
    const [first, second] = dashboard.services.dispatch.payloadsOf(Patterns.dispatch.taskResend);
    expect(first).toEqual({ clientId: aliceClient, id: 1, taskKey: expect.stringMatching(/^[0-9a-f-]{36}$/), deadline: expect.any(String) });
    expect(second!['taskKey']).not.toBe(first!['taskKey']);
    const deadlineIn = Date.parse(String(first!['deadline'])) - Date.now();
    expect(deadlineIn).toBeGreaterThan(5_000);
    expect(deadlineIn).toBeLessThanOrEqual(8_000);
  });

  it('names on the overview each of its enabled phones that went silent, with the tasks waiting for it, and no other', async () => {
    phones.set(14, { ...phone(14, aliceClient), state: 'silent', lastContactAt: '2026-11-22T08:00:00.000Z', waitingTasks: 5 });
    phones.set(15, { ...phone(15, aliceClient), active: false, state: 'disabled', waitingTasks: 2 });
    phones.set(16, { ...phone(16, bobClient), state: 'silent', waitingTasks: 9 });
    try {
      const response = await alice.get('/api/overview');

      expect(response.body.silentPhones).toEqual([{ id: 14, name: 'phone 14', lastContactAt: '2026-11-22T08:00:00.000Z', waitingTasks: 5 }]);
    } finally {
      for (const id of [14, 15, 16]) phones.delete(id);
    }
  });

  it('sets its own phone’s SIM limits, recipient cap, jitter and SIMs in its time zone, null removing one; bad values are 400 naming the field; another’s phone is 404', async () => {
    const set = await alice.send('PATCH', '/api/phones/13', { dailyLimit: 250, perMinute: 12, monthlyRecipients: 150, jitter: 20, sims: 2 });
    const removed = await alice.send('PATCH', '/api/phones/13', { perMinute: null });
    const foreign = await alice.send('PATCH', '/api/phones/12', { dailyLimit: 5 });
    const refusals = await Promise.all(
      [{ dailyLimit: -1 }, { dailyLimit: 2.5 }, { dailyLimit: 100_001 }, { perMinute: 0 }, { perMinute: '7' }, { monthlyRecipients: -1 }, { jitter: 601 }, { jitter: 1.5 }, { sims: 3 }, { sims: null }, { sims: 0 }].map((body) => alice.send('PATCH', '/api/phones/13', body)),
    );

    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: 13, dailyLimit: 250, perMinute: 12, monthlyRecipients: 150, jitter: 20, sims: 2, partsToday: 4, recipientsThisMonth: 2 });
    expect(removed.body).toMatchObject({ id: 13, dailyLimit: 250, perMinute: null, monthlyRecipients: 150, jitter: 20, sims: 2 });
    expect(foreign.status).toBe(404);
    expect(phones.get(12)!.dailyLimit).toBeNull();
    expect(refusals.map((refusal) => [refusal.status, refusal.body.error])).toEqual(Array.from({ length: 11 }, () => [400, 'invalid_request']));
    expect(refusals.map((refusal) => refusal.body.detail)).toEqual([
      expect.stringContaining('dailyLimit must be a whole number from 0 to 100000'),
      expect.stringContaining('dailyLimit must be a whole number'),
      expect.stringContaining('dailyLimit must be a whole number from 0 to 100000'),
      expect.stringContaining('perMinute must be a whole number from 1 to 100000'),
      expect.stringContaining('perMinute must be a whole number'),
      expect.stringContaining('monthlyRecipients must be a whole number from 0 to 100000'),
      expect.stringContaining('jitter must be a whole number of seconds from 0 to 600'),
      expect.stringContaining('jitter must be a whole number'),
      expect.stringContaining('sims must be 1 or 2'),
      expect.stringContaining('sims must be 1 or 2'),
      expect.stringContaining('sims must be 1 or 2'),
    ]);
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.phoneSetLimits).slice(0, 2)).toEqual([
      { phoneId: 13, clientId: aliceClient, kind: 'own', dailyLimit: 250, perMinute: 12, monthlyRecipients: 150, jitter: 20, sims: 2, timeZone: 'Europe/Belgrade' },
      { phoneId: 13, clientId: aliceClient, kind: 'own', perMinute: null, timeZone: 'Europe/Belgrade' },
    ]);
  });

  it('shows a paused phone until when and why, and resumes it at once; another client’s phone is not found and stays paused', async () => {
    const pause = { pausedUntil: '2026-11-22T13:35:00.000Z', pauseReason: 'carrier_volume' as const };
    phones.set(17, { ...phone(17, aliceClient), ...pause }).set(18, { ...phone(18, bobClient), ...pause });
    try {
      const listed = (await alice.get('/api/phones')).body.find((row: { id: number }) => row.id === 17);
      const resumed = await alice.send('POST', '/api/phones/17/resume');
      const foreign = await alice.send('POST', '/api/phones/18/resume');
      const nonsense = await alice.send('POST', '/api/phones/abc/resume');

      expect(listed).toMatchObject({ id: 17, ...pause, timeZone: 'Europe/Belgrade' });
      expect(resumed.status).toBe(200);
      expect(resumed.body).toMatchObject({ id: 17, pausedUntil: null, pauseReason: null });
      expect(foreign.status).toBe(404);
      expect(phones.get(18)).toMatchObject(pause);
      expect(nonsense.status).toBe(404);
      expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.phoneResume)).toEqual([
        { phoneId: 17, clientId: aliceClient, kind: 'own' },
        { phoneId: 18, clientId: aliceClient, kind: 'own' },
      ]);
    } finally {
      for (const id of [17, 18]) phones.delete(id);
    }
  });

  it('sends a message as high priority when asked, through the gateway’s create-tasks; any other priority is 400 and sends nothing', async () => {
    dashboard.services.gateway.on(Patterns.gateway.tasksSend, ({ tasks: bodies }: { tasks: unknown[] }) => ({
      results: bodies.map((_, index) => ({ ok: true, id: 40 + index, status: 'pending', phone_id: 11, client_id: aliceClient, scheduled_at: '2026-11-22 10:00:00', credits_remaining: 28 })),
    }));

    const sent = await alice.send('POST', '/api/send', { idempotencyKey: 'otp-1', messages: [{ recipient: '+381641234567', message: 'Your code is 1234', priority: 'high' }] });
    const refused = await alice.send('POST', '/api/send', { idempotencyKey: 'otp-2', messages: [{ recipient: '+381641234567', message: 'Your code is 1234', priority: 'urgent' }] });

    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ results: [{ ok: true, id: 40, scheduledAt: '2026-11-22 10:00:00', creditsRemaining: 28 }] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining('priority must be one of normal, high') });
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.tasksSend)).toEqual([{ clientId: aliceClient, idempotencyKey: 'otp-1', tasks: [{ recipient: '+381641234567', message: 'Your code is 1234', priority: 'high' }] }]);
  });

  it('sends a message sealed in the page with "encrypted": true, as long as the longest text seals to; a longer one is 400 and sends nothing', async () => {
    const gateway = dashboard.services.gateway;
    gateway.on(Patterns.gateway.tasksSend, ({ tasks: bodies }: { tasks: unknown[] }) => ({
      results: bodies.map((_, index) => ({ ok: true, id: 50 + index, status: 'pending', phone_id: 11, client_id: aliceClient, scheduled_at: '2026-11-22 10:00:00', credits_remaining: 27 })),
    }));
    const sentBefore = gateway.payloadsOf(Patterns.gateway.tasksSend).length;
    const longest = `$smsq$1$${'A'.repeat(OUTGOING_MESSAGE_MAX_LENGTH - 8)}`;

    const sent = await alice.send('POST', '/api/send', { idempotencyKey: 'sealed-1', messages: [{ recipient: '+381641234567', message: SEALED, encrypted: true }] });
    const long = await alice.send('POST', '/api/send', { idempotencyKey: 'sealed-2', messages: [{ recipient: '+381641234567', message: longest, encrypted: true }] });
    const tooLong = await alice.send('POST', '/api/send', { idempotencyKey: 'sealed-3', messages: [{ recipient: '+381641234567', message: `${longest}A`, encrypted: true }] });
    const notBoolean = await alice.send('POST', '/api/send', { idempotencyKey: 'sealed-4', messages: [{ recipient: '+381641234567', message: SEALED, encrypted: 'yes' }] });

    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ results: [{ ok: true, id: 50, scheduledAt: '2026-11-22 10:00:00', creditsRemaining: 27 }] });
    expect(long.status).toBe(200);
    expect(tooLong.status).toBe(400);
    expect(notBoolean.status).toBe(400);
    expect(gateway.payloadsOf(Patterns.gateway.tasksSend).slice(sentBefore)).toEqual([
      { clientId: aliceClient, idempotencyKey: 'sealed-1', tasks: [{ recipient: '+381641234567', message: SEALED, encrypted: true }] },
      { clientId: aliceClient, idempotencyKey: 'sealed-2', tasks: [{ recipient: '+381641234567', message: longest, encrypted: true }] },
    ]);
  });

  it('shows sealed messages in conversations as sealed, and replies with a message sealed in the page', async () => {
    const number = '+381642222222';
    const thread: ConversationView = { number, lastAt: '2026-11-22T10:05:00.000Z', lastText: SEALED.slice(0, 160), lastEncrypted: true, lastDirection: 'in', replyPhoneId: 11, replyAt: '2026-11-22T10:05:00.000Z', readAt: '2026-11-22T10:06:00.000Z' };
    const { dispatch, gateway, inbox } = dashboard.services;
    dispatch
      .on(Patterns.dispatch.conversationList, ({ clientId }) => ({ items: clientId === aliceClient ? [thread] : [], nextCursor: null }))
      .on(Patterns.dispatch.conversationTasks, ({ clientId }) => (clientId === aliceClient ? [{ ...task(60, aliceClient, 'pending'), recipient: number, message: SEALED, encrypted: true, segments: null, error: null }] : []))
      .on(Patterns.dispatch.optOutCheck, () => []);
    inbox.on(Patterns.inbox.messagesFrom, ({ clientId }) =>
      clientId === aliceClient ? [{ id: 7, clientId: aliceClient, phoneId: 11, from: number, message: SEALED, encrypted: true, receivedAt: '2026-11-22T10:05:00.000Z', storedAt: '2026-11-22T10:05:01.000Z' } satisfies InboxMessageView] : [],
    );
    gateway.on(Patterns.gateway.tasksSend, () => ({ results: [{ ok: true, id: 61, status: 'pending', phone_id: 11, client_id: aliceClient, scheduled_at: '2026-11-22 10:07:00', credits_remaining: 26 }] }));

    const list = await alice.get('/api/conversations');
    const page = await alice.get(`/api/conversations/${encodeURIComponent(number)}`);
    const replied = await alice.send('POST', `/api/conversations/${encodeURIComponent(number)}/reply`, { message: SEALED, encrypted: true, idempotencyKey: 'reply-sealed-1' });

    expect(list.body.items).toEqual([{ number, lastAt: thread.lastAt, lastText: thread.lastText, lastEncrypted: true, lastDirection: 'in', unread: 0, timeZone: 'Europe/Belgrade' }]);
    expect(page.body.messages).toEqual([
      { kind: 'out', id: 60, at: '2026-11-22T09:00:00.000Z', message: SEALED, encrypted: true, status: 'pending', error: null },
      { kind: 'in', id: 7, at: '2026-11-22T10:05:00.000Z', message: SEALED, encrypted: true, phoneId: 11 },
    ]);
    expect(replied.body).toEqual({ ok: true, id: 61, scheduledAt: '2026-11-22 10:07:00', creditsRemaining: 26 });
    expect(gateway.payloadsOf(Patterns.gateway.tasksSend).at(-1)).toEqual({ clientId: aliceClient, idempotencyKey: 'reply-sealed-1', tasks: [{ recipient: number, message: SEALED, encrypted: true, phone_id: 11 }] });
  });

  it('lists and changes its own phones, with their last contact, health and the client’s zone; another client’s phone is not found', async () => {
    const list = await alice.get('/api/phones');
    const renamed = await alice.send('PATCH', '/api/phones/11', { name: ' Kitchen ', active: false });
    const foreign = await alice.send('PATCH', '/api/phones/12', { active: false });
    const empty = await alice.send('PATCH', '/api/phones/11', {});

    expect(list.body).toEqual([
      { id: 11, name: 'phone 11', number: null, active: true, state: 'online', lastContactAt: '2026-11-22T09:00:00.000Z', ...NO_LIMITS, waitingTasks: 0, lastSeenAt: null, health: null, sentToday: 3, url: null, timeZone: 'Europe/Belgrade' },
      {
        id: 13,
        name: 'phone 13',
        number: null,
        active: true,
        state: 'online', lastContactAt: '2026-11-22T09:00:00.000Z', ...NO_LIMITS, dailyLimit: 250, monthlyRecipients: 150, jitter: 20, sims: 2, waitingTasks: 0,
        lastSeenAt: '2026-11-22T11:04:05.000Z',
        health: { batteryPercent: 81, charging: true, connection: 'wifi', reportedAt: '2026-11-22T11:03:00.000Z' },
        sentToday: 3,
        url: null,
        timeZone: 'Europe/Belgrade',
      },
    ]);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id: 11, name: 'Kitchen', number: null, active: false, state: 'online', lastContactAt: '2026-11-22T09:00:00.000Z', ...NO_LIMITS, waitingTasks: 0, lastSeenAt: null, health: null, sentToday: 3, url: null, timeZone: 'Europe/Belgrade' });
    expect(foreign.status).toBe(404);
    expect(phones.get(12)!.active).toBe(true);
    expect(empty.status).toBe(400);
    expect(dashboard.services.dispatch.payloadsOf(Patterns.dispatch.phoneSetActive)).toContainEqual({ phoneId: 12, clientId: aliceClient, kind: 'own', active: false });
  });

  it('lists, creates (with the pairing payload in Profile A) and revokes its own keys; another client’s key is not found', async () => {
    const list = await alice.get('/api/keys');
    const created = await alice.send('POST', '/api/keys');
    const revoked = await alice.send('DELETE', '/api/keys/21');
    const foreign = await alice.send('DELETE', '/api/keys/22');

    expect(list.body).toEqual([{ id: 21, prefix: 'smsq_key_abcd', createdAt: '2026-11-22T09:00:00.000Z', lastUsedAt: null, revokedAt: null }]);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 30 + aliceClient, prefix: 'smsq_key_wxyz', apiKey: `smsq_key_raw${aliceClient}`, pairingPayload: expect.any(String) });
    expect(JSON.parse(created.body.pairingPayload)).toEqual({ base_url: 'https://sms.example.test', api_key: `smsq_key_raw${aliceClient}` });
    expect(revoked.status).toBe(204);
    expect(foreign.status).toBe(404);
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.keyRevoke)).toEqual([
      { keyId: 21, clientId: aliceClient },
      { keyId: 22, clientId: aliceClient },
    ]);
  });

  it('records its own phone’s number through the gateway, which reads it as a recipient; blank forgets it', async () => {
    const set = await alice.send('PATCH', '/api/phones/11', { number: '+381 64 123 4567' });
    const refused = await alice.send('PATCH', '/api/phones/11', { number: '0641' });
    const forgotten = await alice.send('PATCH', '/api/phones/11', { number: null });
    const foreign = await alice.send('PATCH', '/api/phones/12', { number: '+381641234567' });

    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: 11, number: '+381 64 123 4567' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining('number') });
    expect(forgotten.body).toMatchObject({ id: 11, number: null });
    expect(foreign.status).toBe(404);
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.phoneNumberSet)).toEqual([
      { phoneId: 11, clientId: aliceClient, kind: 'own', number: '+381 64 123 4567' },
      { phoneId: 11, clientId: aliceClient, kind: 'own', number: '0641' },
      { phoneId: 11, clientId: aliceClient, kind: 'own', number: null },
      { phoneId: 12, clientId: aliceClient, kind: 'own', number: '+381641234567' },
    ]);
  });

  it('lists, creates (the password once) and revokes its own SMPP credentials, with where to connect; another client’s is not found', async () => {
    const created = await alice.send('POST', '/api/smpp-credentials', { systemId: ' kannel ', sourceAddresses: ['ACME', ' ', '+381641234567'] });
    const picked = await alice.send('POST', '/api/smpp-credentials', { systemId: '' });
    const tooLong = await alice.send('POST', '/api/smpp-credentials', { systemId: 'sixteen-chars-xx' });
    const bobs = dashboard.browser();
    await bobs.signUp(`bob2-${Date.now()}@example.test`);
    const bobCredential = await bobs.send('POST', '/api/smpp-credentials', {});
    const foreign = await alice.send('DELETE', `/api/smpp-credentials/${bobCredential.body.credential.id}`);
    const revoked = await alice.send('DELETE', `/api/smpp-credentials/${created.body.credential.id}`);
    const list = await alice.get('/api/smpp-credentials');

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      credential: { id: expect.any(Number), systemId: 'kannel', sourceAddresses: ['ACME', '+381641234567'], createdAt: '2026-11-22T09:00:00.000Z', lastBoundAt: null, revokedAt: null },
      password: 'q7Rk2mXa',
    });
    expect(picked.body.credential.systemId).toBe(`c${aliceClient}abcdef`);
    expect(tooLong.status).toBe(400);
    expect(foreign.status).toBe(404);
    expect(revoked.status).toBe(204);
    expect(list.body).toEqual({
      credentials: [
        { ...created.body.credential, revokedAt: '2026-11-22T10:00:00.000Z' },
        picked.body.credential,
      ],
      connection: { host: 'sms.example.test', port: 2775 },
    });
    expect(JSON.stringify(list.body)).not.toContain('q7Rk2mXa');
    expect(dashboard.services.gateway.payloadsOf(Patterns.gateway.smppCredentialCreate).slice(0, 2)).toEqual([
      { clientId: aliceClient, systemId: 'kannel', sourceAddresses: ['ACME', '+381641234567'] },
      { clientId: aliceClient },
    ]);
  });

  it('lists its inbox by its own client id, 50 a page', async () => {
    const response = await alice.get('/api/inbox?search=yes');

    expect(response.body).toEqual({
      items: [
        { id: 5, from: '+381641111111', message: 'yes', encrypted: false, receivedAt: '2026-11-22T10:00:00.000Z', phoneId: 11, timeZone: 'Europe/Belgrade' },
        { id: 6, from: '+381641111111', message: SEALED, encrypted: true, receivedAt: '2026-11-22T10:05:00.000Z', phoneId: 11, timeZone: 'Europe/Belgrade' },
      ],
      total: 2,
      page: 1,
      pageSize: 50,
    });
    expect(dashboard.services.inbox.payloadsOf(Patterns.inbox.messagesList).at(-1)).toEqual({ clientId: aliceClient, page: 1, pageSize: 50, search: 'yes' });
  });

  it.each(['/api/admin/clients', '/api/admin/clients/1', '/api/admin/gateways', '/api/admin/worker-tokens', '/api/admin/system', '/api/admin/nothing'])(
    'hides admin route %s from a client user as 404',
    async (path) => {
      const response = await alice.get(path);

      expect(response.status).toBe(404);
      expect(response.body.error).toBe('not_found');
    },
  );

  it('hides admin changes from a client user as 404 as well', async () => {
    const created = await alice.send('POST', '/api/admin/clients', { name: 'sneaky' });
    const granted = await alice.send('POST', `/api/admin/clients/${aliceClient}/credits`, { amount: 1000 });

    expect(created.status).toBe(404);
    expect(granted.status).toBe(404);
    expect(dashboard.services.billing.sent).toEqual([]);
  });
});
