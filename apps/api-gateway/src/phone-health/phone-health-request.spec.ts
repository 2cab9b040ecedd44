import { DomainError } from '@smsq/contracts';
import { UNPARSABLE_BODY } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { parsePhoneHealth } from './phone-health-request.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as DomainError).code;
  }
}

describe(parsePhoneHealth.name, () => {
  it('reads any of the three fields, alone or together', () => {
    expect(parsePhoneHealth({ battery_percent: 87, charging: true, connection: 'wifi' })).toEqual({ batteryPercent: 87, charging: true, connection: 'wifi' });
    expect(parsePhoneHealth({ battery_percent: 0 })).toEqual({ batteryPercent: 0 });
    expect(parsePhoneHealth({ battery_percent: 100 })).toEqual({ batteryPercent: 100 });
    expect(parsePhoneHealth({ charging: false })).toEqual({ charging: false });
    expect(parsePhoneHealth({ connection: 'LTE (roaming) – Telenor' })).toEqual({ connection: 'LTE (roaming) – Telenor' });
    expect(parsePhoneHealth({ connection: '5G 📶' })).toEqual({ connection: '5G 📶' });
  });

  it('ignores unknown fields and takes null as left out', () => {
    expect(parsePhoneHealth({ charging: true, signal: -70, battery_percent: null })).toEqual({ charging: true });
  });

  it('counts the connection in characters, up to 40', () => {
    expect(parsePhoneHealth({ connection: 'ж'.repeat(40) })).toEqual({ connection: 'ж'.repeat(40) });
    expect(parsePhoneHealth({ connection: '📶'.repeat(40) })).toEqual({ connection: '📶'.repeat(40) });
    expect(codeOf(() => parsePhoneHealth({ connection: 'x'.repeat(41) }))).toBe('invalid_request');
  });

  it.each([
    [UNPARSABLE_BODY, 'invalid_json'],
    [[], 'invalid_request'],
    ['wifi', 'invalid_request'],
    [{}, 'invalid_request'],
    [{ signal: -70 }, 'invalid_request'],
    [{ battery_percent: null, charging: null, connection: null }, 'invalid_request'],
    [{ battery_percent: -1 }, 'invalid_request'],
    [{ battery_percent: 101 }, 'invalid_request'],
    [{ battery_percent: 50.5 }, 'invalid_request'],
    [{ battery_percent: '50' }, 'invalid_request'],
    [{ battery_percent: true }, 'invalid_request'],
    [{ charging: 'true' }, 'invalid_request'],
    [{ charging: 1 }, 'invalid_request'],
    [{ connection: '' }, 'invalid_request'],
    [{ connection: '   ' }, 'invalid_request'],
    [{ connection: 'wi\nfi' }, 'invalid_request'],
    [{ connection: 'wifi\u0000' }, 'invalid_request'],
    [{ connection: '\u202ewifi' }, 'invalid_request'],
    [{ connection: 'ok\ud800' }, 'invalid_request'],
    [{ connection: 4 }, 'invalid_request'],
    [{ charging: true, battery_percent: 'full' }, 'invalid_request'],
  ])('answers %j with %s', (body, code) => {
    expect(codeOf(() => parsePhoneHealth(body))).toBe(code);
  });
});
