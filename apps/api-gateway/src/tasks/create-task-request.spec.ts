import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { UNPARSABLE_BODY } from '../http/json-body.js';
import { parseCreateTaskRequest, parseIdempotencyKey } from './create-task-request.js';

const CONTEXT = { profile: 'A' as const, defaultRegion: undefined, timeZone: 'Europe/Belgrade', now: new Date('2026-11-22T10:00:00Z') };

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
});

describe(parseIdempotencyKey.name, () => {
  it('takes 1 to 255 characters', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
    expect(() => parseIdempotencyKey('k'.repeat(256))).toThrow('Idempotency-Key');
    expect(() => parseIdempotencyKey('')).toThrow('Idempotency-Key');
  });
});
