import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { UNPARSABLE_BODY } from '../http/json-body.js';
import { parseStatusReport, parseWait } from './worker-requests.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as DomainError).code;
  }
}

describe(parseWait.name, () => {
  it('reads whole seconds and counts anything above 30 as 30', () => {
    expect(parseWait(undefined)).toBe(0);
    expect(parseWait('0')).toBe(0);
    expect(parseWait('12')).toBe(12);
    expect(parseWait('3600')).toBe(30);
  });

  it.each(['-1', '1.5', 'soon', ['1', '2']])('refuses %j', (value) => {
    expect(codeOf(() => parseWait(value))).toBe('invalid_request');
  });
});

describe(parseStatusReport.name, () => {
  it('reads a report with or without an error text', () => {
    expect(parseStatusReport({ id: 4, status: 'sent' })).toEqual({ id: 4, status: 'sent', error: undefined, next: false });
    expect(parseStatusReport({ id: 4, status: 'failed', error: 'no signal' })).toEqual({ id: 4, status: 'failed', error: 'no signal', next: false });
  });

  it('reads a delivery report', () => {
    expect(parseStatusReport({ id: 4, status: 'delivered' })).toEqual({ id: 4, status: 'delivered', error: undefined, next: false });
  });

  it('reads the wish to claim the next task in the same request', () => {
    expect(parseStatusReport({ id: 4, status: 'sent', next: true }).next).toBe(true);
    expect(parseStatusReport({ id: 4, status: 'sent', next: false }).next).toBe(false);
  });

  it('reads retry on a failure, and leaves it out when not given', () => {
    expect(parseStatusReport({ id: 4, status: 'failed', error: 'radio off', retry: true })).toEqual({ id: 4, status: 'failed', error: 'radio off', next: false, retry: true });
    expect(parseStatusReport({ id: 4, status: 'failed', retry: false })).toEqual({ id: 4, status: 'failed', error: undefined, next: false, retry: false });
    expect(parseStatusReport({ id: 4, status: 'failed' })).not.toHaveProperty('retry');
  });

  it.each(['sent', 'delivered'])('refuses retry with status %s, saying it goes only with failed', (status) => {
    expect(() => parseStatusReport({ id: 4, status, retry: true })).toThrow('retry is allowed only with status "failed"');
    expect(() => parseStatusReport({ id: 4, status, retry: false })).toThrow('retry is allowed only with status "failed"');
  });

  it('keeps at most 1000 characters of the error', () => {
    expect(parseStatusReport({ id: 1, status: 'failed', error: 'x'.repeat(5000) }).error).toHaveLength(1000);
  });

  it.each([
    [UNPARSABLE_BODY, 'invalid_json'],
    [[], 'invalid_request'],
    [{ status: 'sent' }, 'invalid_request'],
    [{ id: '4', status: 'sent' }, 'invalid_request'],
    [{ id: 0, status: 'sent' }, 'invalid_request'],
    [{ id: 4, status: 'read' }, 'invalid_request'],
    [{ id: 4, status: 'DELIVERED' }, 'invalid_request'],
    [{ id: 4, status: 'claimed' }, 'invalid_request'],
    [{ id: 4, status: 'failed', error: 42 }, 'invalid_request'],
    [{ id: 4, status: 'sent', next: 'yes' }, 'invalid_request'],
    [{ id: 4, status: 'failed', retry: 'true' }, 'invalid_request'],
    [{ id: 4, status: 'failed', retry: 1 }, 'invalid_request'],
    [{ id: 4, status: 'failed', retry: null }, 'invalid_request'],
    [{ id: 4, status: 'sent', retry: true }, 'invalid_request'],
  ])('answers %j with %s', (body, code) => {
    expect(codeOf(() => parseStatusReport(body))).toBe(code);
  });
});
