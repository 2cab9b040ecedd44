import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { UNPARSABLE_BODY } from '@smsq/platform';
import { SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import { parseCreateTaskRequest, refuseLapsedExpiry } from './create-task-request.js';

const CONTEXT = { profile: 'A' as const, defaultRegion: undefined, timeZone: 'Europe/Belgrade', now: new Date('2026-11-22T10:00:00Z'), templates: new Map() };

function codeOf(body: unknown): string | undefined {
  try {
    parseCreateTaskRequest(body, CONTEXT);
    return undefined;
  } catch (error) {
    return (error as DomainError).code;
  }
}

describe(parseCreateTaskRequest.name, () => {
  it('normalises a valid body', () => {
    const request = parseCreateTaskRequest({ recipient: '064 123 4567', message: 'hi', phone_id: 7, scheduled_at: '2026-12-01T09:30' }, CONTEXT);
    expect(request).toEqual({
      recipient: '+381641234567',
      message: 'hi',
      requestedPhoneId: 7,
      schedule: { at: new Date('2026-12-01T08:30:00Z'), local: '2026-12-01 09:30:00' },
      expiresAt: undefined,
      priority: 'normal',
      encrypted: false,
    });
  });

  describe('priority', () => {
    const SMS = { recipient: '+381641234567', message: 'your code is 1234' };

    it('reads "high" and "normal"; left out or null, normal', () => {
      expect(parseCreateTaskRequest({ ...SMS, priority: 'high' }, CONTEXT).priority).toBe('high');
      expect(parseCreateTaskRequest({ ...SMS, priority: 'normal' }, CONTEXT).priority).toBe('normal');
      expect(parseCreateTaskRequest(SMS, CONTEXT).priority).toBe('normal');
      expect(parseCreateTaskRequest({ ...SMS, priority: null }, CONTEXT).priority).toBe('normal');
    });

    it.each([['HIGH'], ['urgent'], [1], [true], [['high']]])('refuses priority %j as invalid_request, naming what is allowed', (priority) => {
      expect(() => parseCreateTaskRequest({ ...SMS, priority }, CONTEXT)).toThrow(
        expect.objectContaining({ code: 'invalid_request', detail: expect.stringContaining('priority must be "normal" or "high"') }),
      );
    });
  });

  describe('expiry', () => {
    const SMS = { recipient: '+381641234567', message: 'your code is 1234' };
    const expiryOf = (body: object) => parseCreateTaskRequest({ ...SMS, ...body }, CONTEXT).expiresAt?.toISOString();

    it('counts ttl from when the task is due: now, a future scheduled_at, or now again for one already past', () => {
      expect(expiryOf({ ttl: 300 })).toBe('2026-11-22T10:05:00.000Z');
      expect(expiryOf({ ttl: 60, scheduled_at: '2026-12-01 09:30' })).toBe('2026-12-01T08:31:00.000Z');
      expect(expiryOf({ ttl: 60, scheduled_at: '2020-01-01 09:30' })).toBe('2026-11-22T10:01:00.000Z');
      expect(expiryOf({ ttl: null })).toBeUndefined();
    });

    it('reads expires_at as a local time in the client’s zone, or as an instant with its offset', () => {
      expect(expiryOf({ expires_at: '2026-11-22 12:00' })).toBe('2026-11-22T11:00:00.000Z');
      expect(expiryOf({ expires_at: '2026-11-22T10:30:00Z' })).toBe('2026-11-22T10:30:00.000Z');
    });

    it.each([
      [{ ttl: 0 }, 'ttl must be a whole number'],
      [{ ttl: 1.5 }, 'ttl must be a whole number'],
      [{ ttl: '60' }, 'ttl must be a whole number'],
      [{ ttl: 366 * 86_400 + 1 }, 'ttl must be a whole number'],
      [{ ttl: 60, expires_at: '2026-11-22 12:00' }, 'not both'],
      [{ expires_at: 1_700_000_000 }, 'expires_at must be a string'],
      [{ expires_at: 'tomorrow' }, 'must be YYYY-MM-DD'],
    ])('refuses %j as invalid_request', (body, detail) => {
      expect(() => parseCreateTaskRequest({ ...SMS, ...body }, CONTEXT)).toThrow(expect.objectContaining({ code: 'invalid_request', detail: expect.stringContaining(detail) }));
    });

    it.each([[{ expires_at: '2026-11-22 10:59' }], [{ expires_at: '2026-12-01 09:00', scheduled_at: '2026-12-01 09:30' }]])(
      'reads %j, and refuses it when the create runs: it is not later than the time the task is due',
      (body) => {
        const request = parseCreateTaskRequest({ ...SMS, ...body }, CONTEXT);
        expect(() => refuseLapsedExpiry(request, CONTEXT.now)).toThrow(expect.objectContaining({ code: 'invalid_request', detail: 'expires_at must be later than the time the task is due' }));
      },
    );

    it('refuses, when the create runs, an expiry that has passed since the body was read', () => {
      const request = parseCreateTaskRequest({ ...SMS, expires_at: '2026-11-22 11:30' }, CONTEXT);
      expect(() => refuseLapsedExpiry(request, CONTEXT.now)).not.toThrow();
      expect(() => refuseLapsedExpiry(request, new Date('2026-11-22T10:31:00Z'))).toThrow('expires_at must be later');
    });
  });

  it.each([
    [UNPARSABLE_BODY, 'invalid_json'],
    [undefined, 'invalid_request'],
    [null, 'invalid_request'],
    [[], 'invalid_request'],
    ['text', 'invalid_request'],
    [{ message: 'x' }, 'invalid_request'],
    [{ recipient: '+381641234567' }, 'invalid_request'],
    [{ recipient: ['+381641234567'], message: 'x' }, 'invalid_request'],
    [{ recipient: 'nope', message: '' }, 'invalid_recipient'],
    [{ recipient: '+381641234567', message: '' }, 'invalid_message'],
    [{ recipient: '+381641234567', message: '\ud800' }, 'invalid_message'],
    [{ recipient: '+381641234567', message: 'a'.repeat(1601) }, 'invalid_message'],
    [{ recipient: '+381641234567', message: 'x', scheduled_at: 'soon' }, 'invalid_scheduled_at'],
  ])('answers %j with %s', (body, code) => {
    expect(codeOf(body)).toBe(code);
  });

  it('accepts 1600 code points even when they take 3200 UTF-16 units', () => {
    expect(codeOf({ recipient: '+381641234567', message: '𝄞'.repeat(1600) })).toBeUndefined();
  });

  it.each([[0], [-4], [1.5], ['7a'], [''], [null], [{}], [2 ** 31], ['99999999999']])('ignores the unusable phone_id %j', (phone_id) => {
    expect(parseCreateTaskRequest({ recipient: '+381641234567', message: 'x', phone_id }, CONTEXT).requestedPhoneId).toBeUndefined();
  });

  it('takes a phone_id only as a JSON integer; digits in a string are not a number', () => {
    expect(parseCreateTaskRequest({ recipient: '+381641234567', message: 'x', phone_id: 12 }, CONTEXT).requestedPhoneId).toBe(12);
    expect(parseCreateTaskRequest({ recipient: '+381641234567', message: 'x', phone_id: '12' }, CONTEXT).requestedPhoneId).toBeUndefined();
  });

  describe('encrypted', () => {
    const sealed = SEALED_MESSAGE_TEST_VECTORS[0]!.sealed;

    it('stores a sealed message exactly as given, and says it is sealed', () => {
      const request = parseCreateTaskRequest({ recipient: '+381641234567', message: sealed, encrypted: true }, CONTEXT);
      expect(request).toMatchObject({ message: sealed, encrypted: true });
    });

    it('refuses a message that is not a sealed one, naming the problem', () => {
      expect(() => parseCreateTaskRequest({ recipient: '+381641234567', message: 'hello', encrypted: true }, CONTEXT)).toThrow(/not a sealed message.*starts with \$smsq\$/);
      expect(codeOf({ recipient: '+381641234567', message: sealed.slice(0, -3), encrypted: true })).toBe('invalid_message');
      expect(codeOf({ recipient: '+381641234567', message: sealed.replace('$smsq$1$', '$smsq$9$'), encrypted: true })).toBe('invalid_message');
    });

    it('refuses a sealed message sent as plain text, and a sealed one of no text', () => {
      expect(() => parseCreateTaskRequest({ recipient: '+381641234567', message: sealed }, CONTEXT)).toThrow(/send it with "encrypted": true/);
      const header = sealed.slice(0, sealed.lastIndexOf('$') + 1);
      // The tag alone: what a sealer that let an empty text through would write.
      expect(() => parseCreateTaskRequest({ recipient: '+381641234567', message: `${header}${'A'.repeat(22)}`, encrypted: true }, CONTEXT)).toThrow(/holds no text/);
    });

    it('refuses a template, and anything but true or false', () => {
      expect(() => parseCreateTaskRequest({ recipient: '+381641234567', template_id: 1, encrypted: true }, CONTEXT)).toThrow(/template_id cannot be used with encrypted/);
      expect(codeOf({ recipient: '+381641234567', message: sealed, encrypted: 'yes' })).toBe('invalid_request');
    });

    it('refuses a sealed message longer than the longest message seals to', () => {
      expect(sealed.length).toBeLessThan(1600);
      expect(codeOf({ recipient: '+381641234567', message: `${sealed.slice(0, 70)}${'A'.repeat(9_000)}`, encrypted: true })).toBe('invalid_message');
    });
  });
});
