import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { UNPARSABLE_BODY } from '../http/json-body.js';
import { parsePhoneLimits } from './phone-limits-request.js';

function refusal(body: unknown): { code: string; detail: string } | undefined {
  try {
    parsePhoneLimits(body);
    return undefined;
  } catch (error) {
    return { code: (error as DomainError).code, detail: (error as DomainError).detail };
  }
}

describe(parsePhoneLimits.name, () => {
  it('reads either limit, both, and null as no limit; a field left out stays out', () => {
    expect(parsePhoneLimits({ daily_limit: 500 })).toEqual({ dailyLimit: 500 });
    expect(parsePhoneLimits({ per_minute: 10 })).toEqual({ perMinute: 10 });
    expect(parsePhoneLimits({ daily_limit: null, per_minute: 100_000 })).toEqual({ dailyLimit: null, perMinute: 100_000 });
    expect(parsePhoneLimits({ daily_limit: 0 })).toEqual({ dailyLimit: 0 });
  });

  it.each([
    [{ daily_limit: -1 }, 'daily_limit must be at least 0'],
    [{ daily_limit: 1.5 }, 'daily_limit must be a whole number'],
    [{ daily_limit: '10' }, 'daily_limit must be a whole number'],
    [{ daily_limit: 100_001 }, 'daily_limit must be at most 100000'],
    [{ per_minute: 0 }, 'per_minute must be at least 1'],
    [{ per_minute: -3 }, 'per_minute must be at least 1'],
    [{ per_minute: 2.5 }, 'per_minute must be a whole number'],
    [{ per_minute: 1e9 }, 'per_minute must be at most 100000'],
    [{ per_minute: true }, 'per_minute must be a whole number'],
    [{}, 'give daily_limit, per_minute or both'],
    [{ daily_limit: 5, name: 'x' }, 'unknown field "name"'],
    [{ dailyLimit: 5 }, 'unknown field "dailyLimit"'],
    [[], 'the body must be'],
  ])('refuses %j with invalid_request naming the field: %s', (body, detail) => {
    expect(refusal(body)).toEqual({ code: 'invalid_request', detail: expect.stringContaining(detail) });
  });

  it('answers a body that is not JSON with invalid_json', () => {
    expect(refusal(UNPARSABLE_BODY)?.code).toBe('invalid_json');
  });
});
