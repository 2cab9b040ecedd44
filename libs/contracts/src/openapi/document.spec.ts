import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors.js';
import { phoneBody, type PhoneDetails } from '../dispatch/phone-list.js';
import { sendingRulesBody, type SendingRulesView, type Weekday } from '../dispatch/sending-rules.js';
import { taskBody, type TaskView } from '../dispatch/task-view.js';
import { openApiDocument } from './document.js';

const document = openApiDocument({ profile: 'A' });

/** Each operation's answers: `[path, method, status, media]`. */
function answers(): Array<[string, string, string, Record<string, any>]> {
  const found: Array<[string, string, string, Record<string, any>]> = [];
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, answer] of Object.entries(operation.responses as Record<string, any>)) found.push([path, method, status, answer]);
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by Redocly\'s recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license-url': 'off', 'operation-4xx-response': 'error' } });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.message} at ${problem.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('has schemas that compile, with every reference resolved, and examples that match them', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false });
    addFormats.default(ajv);
    // The document itself is no schema: only the schemas its pointers reach are compiled, strictly.
    for (const field of Object.keys(document)) ajv.addKeyword(field);
    ajv.addSchema(document, 'openapi.json');
    let examples = 0;
    for (const [path, method, status, answer] of answers()) {
      const media = answer.content?.['application/json'];
      if (!media) continue;
      const validate = ajv.compile({ $ref: `openapi.json#/paths/${pointer(path)}/${method}/responses/${status}/content/application~1json/schema` });
      if (media.example !== undefined) {
        examples += 1;
        expect(validate(media.example), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
    expect(examples).toBeGreaterThan(10);
  });

  it('describes exactly the phone object and the task object the gateway and the webhooks send', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false });
    addFormats.default(ajv);
    for (const field of Object.keys(document)) ajv.addKeyword(field);
    ajv.addSchema(document, 'openapi.json');
    const phone: PhoneDetails = {
      id: 3, kind: 'own', clientId: 7, name: 'Office', number: '+381641234567', url: null, deviceId: 'd1', active: true, createdAt: '2026-05-01T07:00:00.000Z', lastSeenAt: null,
      health: { batteryPercent: null, charging: true, connection: null, reportedAt: '2026-05-01T07:29:00.000Z' },
      state: 'silent', lastContactAt: '2026-05-01T07:00:00.000Z', dailyLimit: 0, perMinute: 30, monthlyRecipients: 250, jitter: 15, sims: 2,
      pausedUntil: '2026-05-01T07:05:00.000Z', pauseReason: 'carrier_volume', lastAssignedAt: null, sentToday: 0, partsToday: 3, recipientsThisMonth: 2, waitingTasks: 4,
    };
    const task: TaskView = {
      id: 42, clientId: 7, phoneId: 4, firstPhoneId: 3, recipient: '+381641234567', message: 'hi', status: 'pending', scheduledAt: '2026-05-01 09:30:00', attempts: 1,
      sentAt: null, deliveredAt: null, failedAt: null, error: null, expiresAt: null, createdAt: '2026-05-01T07:00:00.000Z', segments: 1, encrypted: false, priority: 'normal', reroutedBecause: 'phone_paused',
    };
    const validPhone = ajv.compile({ $ref: 'openapi.json#/components/schemas/Phone' });
    const validTask = ajv.compile({ $ref: 'openapi.json#/components/schemas/Task' });
    const validPhoneEvent = ajv.compile({ $ref: 'openapi.json#/components/schemas/PhoneEvent' });

    expect(validPhone(phoneBody(phone)), ajv.errorsText(validPhone.errors)).toBe(true);
    expect(
      validPhone(phoneBody({ ...phone, health: null, dailyLimit: null, perMinute: null, monthlyRecipients: null, jitter: null, sims: 1, pausedUntil: null, pauseReason: null, lastSeenAt: '2026-05-01T07:00:00.000Z' })),
      ajv.errorsText(validPhone.errors),
    ).toBe(true);
    expect(validPhone(phoneBody({ ...phone, number: null })), ajv.errorsText(validPhone.errors)).toBe(true);
    expect(validPhone({ ...phoneBody(phone), number: '0641234567' })).toBe(false);
    expect(validPhone({ ...phoneBody(phone), pause_reason: 'tired' })).toBe(false);
    expect(validPhone({ ...phoneBody(phone), state: 'asleep' })).toBe(false);
    expect(validTask(JSON.parse(JSON.stringify(taskBody(task)))), ajv.errorsText(validTask.errors)).toBe(true);
    expect(validTask(JSON.parse(JSON.stringify(taskBody({ ...task, priority: 'high' }))))).toBe(true);
    expect(validTask(JSON.parse(JSON.stringify(taskBody({ ...task, encrypted: true, segments: null })))), ajv.errorsText(validTask.errors)).toBe(true);
    expect(validPhoneEvent({ id: '8f14e45f-ceea-467f-a0e6-1b2c3d4e5f60', type: 'phone.silent', created_at: '2026-05-01T07:02:00.000Z', data: phoneBody(phone) }), ajv.errorsText(validPhoneEvent.errors)).toBe(true);
    expect(validPhoneEvent({ id: '8f14e45f-ceea-467f-a0e6-1b2c3d4e5f60', type: 'phone.paused', created_at: '2026-05-01T07:02:00.000Z', data: phoneBody(phone) }), ajv.errorsText(validPhoneEvent.errors)).toBe(true);
    expect(Object.keys((document as any).webhooks)).toEqual(expect.arrayContaining(['task.rerouted', 'phone.silent', 'phone.online', 'phone.paused', 'phone.resumed']));
  });

  it('describes the sending rules the gateway answers, and takes only the changes it accepts', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false });
    addFormats.default(ajv);
    for (const field of Object.keys(document)) ajv.addKeyword(field);
    ajv.addSchema(document, 'openapi.json');
    const validRules = ajv.compile({ $ref: 'openapi.json#/components/schemas/SendingRules' });
    const validRequest = ajv.compile({ $ref: 'openapi.json#/components/schemas/SendingRulesRequest' });
    const rules: SendingRulesView = {
      routingMode: 'first', stickyDays: 30, sendWindows: [], timeZone: 'Europe/Belgrade', windowOpen: true, windowOpensAt: null,
    };
    const night = { days: ['fri', 'sat'] as Weekday[], from: '22:00', to: '06:00' };

    expect(validRules(sendingRulesBody(rules)), ajv.errorsText(validRules.errors)).toBe(true);
    expect(validRules(sendingRulesBody({ ...rules, routingMode: 'sticky', sendWindows: [night], windowOpen: false, windowOpensAt: '2026-05-01T20:00:00.000Z' })), ajv.errorsText(validRules.errors)).toBe(true);
    for (const change of [{ routing_mode: 'spread' }, { sticky_days: 365 }, { send_windows: null }, { send_windows: [] }, { send_windows: [night, { days: ['sun'], from: '10:00', to: '24:00' }] }]) {
      expect(validRequest(change), JSON.stringify(change)).toBe(true);
    }
    for (const change of [{}, { routing_mode: 'random' }, { sticky_days: 0 }, { sticky_days: 366 }, { send_windows: [{ ...night, from: '8:00' }] }, { send_windows: [{ ...night, days: ['mon', 'mon'] }] }, { send_windows: [{ ...night, days: [] }] }, { time_zone: 'UTC' }]) {
      expect(validRequest(change), JSON.stringify(change)).toBe(false);
    }
  });

  it('takes a task priority of normal or high, and a failure reason only from the list', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false });
    addFormats.default(ajv);
    for (const field of Object.keys(document)) ajv.addKeyword(field);
    ajv.addSchema(document, 'openapi.json');
    const validCreate = ajv.compile({ $ref: 'openapi.json#/components/schemas/CreateTaskRequest' });
    const validReport = ajv.compile({ $ref: 'openapi.json#/components/schemas/TaskStatusRequest' });
    const validClaim = ajv.compile({ $ref: 'openapi.json#/components/schemas/ClaimedTask' });
    const sms = { recipient: '+381641234567', message: 'Your code is 1234' };
    const claimed = { id: 42, recipient: '+381641234567', message: 'hi', phone_id: 3, client_id: 7, scheduled_at: '2026-05-01 09:30:00', gateway_url: null, attempt: 1, claim_expires_at: '2026-05-01T07:35:00.000Z', parts: 2 };

    expect(validCreate({ ...sms, priority: 'high' })).toBe(true);
    expect(validCreate({ ...sms, priority: 'urgent' })).toBe(false);
    expect(validReport({ id: 42, status: 'failed', retry: true, reason: 'carrier_volume' })).toBe(true);
    expect(validReport({ id: 42, status: 'failed', retry: true, reason: 'spam' })).toBe(false);
    expect(validClaim(claimed), ajv.errorsText(validClaim.errors)).toBe(true);
    expect(validClaim({ ...claimed, per_minute: 10, jitter: 30, sim: 2 }), ajv.errorsText(validClaim.errors)).toBe(true);
    expect(validClaim({ ...claimed, sim: 3 })).toBe(false);
  });

  it('takes SIM limits of 0 to 100,000 (per_minute from 1), jitter to 600, 1 or 2 SIMs, null, and nothing else', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false });
    addFormats.default(ajv);
    for (const field of Object.keys(document)) ajv.addKeyword(field);
    ajv.addSchema(document, 'openapi.json');
    const valid = ajv.compile({ $ref: 'openapi.json#/components/schemas/PhoneLimitsRequest' });

    for (const limits of [{ number: '064 123 4567' }, { number: null, sims: 1 }, { daily_limit: 0 }, { per_minute: 1 }, { daily_limit: null, per_minute: 100_000 }, { monthly_recipients: 0 }, { monthly_recipients: null, jitter: 600, sims: 2 }, { jitter: null }]) {
      expect(valid(limits), JSON.stringify(limits)).toBe(true);
    }
    for (const limits of [{}, { daily_limit: -1 }, { daily_limit: 1.5 }, { per_minute: 0 }, { per_minute: 100_001 }, { daily_limit: 5, name: 'x' }, { monthly_recipients: 100_001 }, { jitter: 601 }, { sims: 3 }, { sims: null }]) {
      expect(valid(limits), JSON.stringify(limits)).toBe(false);
    }
  });

  it('documents every error code the contract has, in the error shape', () => {
    const codes = (document as any).components.schemas.Error.properties.error.enum;
    expect(new Set(codes)).toEqual(new Set(Object.keys(ERROR_STATUS)));
    for (const [path, method, status, answer] of answers()) {
      if (status.startsWith('2')) continue;
      expect(answer.content['application/json'].schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
    }
  });

  it('states the profile it was built for', () => {
    expect((openApiDocument({ profile: 'B' }) as any).info['x-smsq-profile']).toBe('B');
  });
});

function pointer(path: string): string {
  return path.replace(/~/g, '~0').replace(/\//g, '~1');
}
