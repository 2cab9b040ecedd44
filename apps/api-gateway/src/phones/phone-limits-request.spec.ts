import { DomainError } from '@smsq/contracts';
import { UNPARSABLE_BODY } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
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

  it('reads the recipient cap, the jitter and the SIM count, null removing the cap or the jitter', () => {
    expect(parsePhoneLimits({ monthly_recipients: 200, jitter: 30, sims: 2 })).toEqual({ monthlyRecipients: 200, jitter: 30, sims: 2 });
    expect(parsePhoneLimits({ monthly_recipients: null, jitter: null })).toEqual({ monthlyRecipients: null, jitter: null });
    expect(parsePhoneLimits({ monthly_recipients: 0, jitter: 0, sims: 1 })).toEqual({ monthlyRecipients: 0, jitter: 0, sims: 1 });
    expect(parsePhoneLimits({ monthly_recipients: 100_000, jitter: 600 })).toEqual({ monthlyRecipients: 100_000, jitter: 600 });
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
    [{ monthly_recipients: -1 }, 'monthly_recipients must be at least 0'],
    [{ monthly_recipients: 100_001 }, 'monthly_recipients must be at most 100000'],
    [{ monthly_recipients: '250' }, 'monthly_recipients must be a whole number from 0 to 100000, or null for no cap'],
    [{ jitter: -1 }, 'jitter must be at least 0'],
    [{ jitter: 601 }, 'jitter must be at most 600'],
    [{ jitter: 2.5 }, 'jitter must be a whole number from 0 to 600'],
    [{ sims: 0 }, 'sims must be 1 or 2'],
    [{ sims: 3 }, 'sims must be 1 or 2'],
    [{ sims: null }, 'sims must be 1 or 2'],
    [{}, 'give one or more of number, daily_limit, per_minute, monthly_recipients, jitter and sims'],
    [{ daily_limit: 5, name: 'x' }, 'unknown field "name": only number, daily_limit, per_minute, monthly_recipients, jitter and sims can be set'],
    [{ dailyLimit: 5 }, 'unknown field "dailyLimit"'],
    [[], 'the body must be'],
  ])('refuses %j with invalid_request naming the field: %s', (body, detail) => {
    expect(refusal(body)).toEqual({ code: 'invalid_request', detail: expect.stringContaining(detail) });
  });

  it('answers a body that is not JSON with invalid_json', () => {
    expect(refusal(UNPARSABLE_BODY)?.code).toBe('invalid_json');
  });
});
