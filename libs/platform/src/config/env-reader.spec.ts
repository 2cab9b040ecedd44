import { describe, expect, it } from 'vitest';
import { readCommonConfig } from './common-config.js';
import { ConfigError, EnvReader } from './env-reader.js';
import { loadConfig } from './load-config.js';

describe(EnvReader.name, () => {
  it('reads typed values and falls back to defaults', () => {
    const sut = new EnvReader({ PORT: '3005', FLAG: 'yes', MODE: 'b' });
    expect(sut.port('PORT', 1)).toBe(3005);
    expect(sut.port('OTHER_PORT', 3011)).toBe(3011);
    expect(sut.bool('FLAG', false)).toBe(true);
    expect(sut.oneOf('MODE', ['A', 'B'] as const, 'A')).toBe('B');
    sut.done();
  });

  it('names every bad variable at once', () => {
    const sut = new EnvReader({ PORT: 'abc', RATE: '-1', FLAG: 'maybe', URL: 'http://x' });
    sut.port('PORT', 1);
    sut.int('RATE', 1, { min: 0 });
    sut.bool('FLAG', false);
    sut.url('URL', 'redis://localhost', ['redis']);
    sut.string('REQUIRED');
    expect(() => sut.done()).toThrow(ConfigError);
    try {
      sut.done();
    } catch (error) {
      const message = (error as ConfigError).message;
      for (const name of ['PORT', 'RATE', 'FLAG', 'URL', 'REQUIRED']) expect(message).toContain(name);
    }
  });
});

describe('EnvReader URLs', () => {
  it('reads an optional URL, absent as undefined', () => {
    const sut = new EnvReader({ OWN_URL: 'postgresql://smsq_billing:pw@db/smsq' });
    expect(sut.optionalUrl('OWN_URL', ['postgresql'])).toBe('postgresql://smsq_billing:pw@db/smsq');
    expect(sut.optionalUrl('OTHER_URL', ['postgresql'])).toBeUndefined();
    sut.done();
  });

  it('names a bad URL without repeating the password it carries', () => {
    const sut = new EnvReader({ OWN_URL: 'mysql://smsq:hunter2-secret@db/smsq', BROKEN_URL: 'hunter3-secret' });
    sut.optionalUrl('OWN_URL', ['postgresql']);
    sut.url('BROKEN_URL', 'postgresql://db/smsq', ['postgresql']);
    expect(() => sut.done()).toThrow(/OWN_URL must be a postgresql URL, got "mysql:\/\/smsq:\*\*\*@db\/smsq"[\s\S]*BROKEN_URL must be/);
    expect(() => sut.done()).not.toThrow(/hunter/);
  });
});

describe(readCommonConfig.name, () => {
  it('has working defaults', () => {
    expect(loadConfig(readCommonConfig, {})).toMatchObject({
      profile: 'A',
      namespace: 'smsq',
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/smsq',
      amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
      redisUrl: 'redis://127.0.0.1:6379',
    });
  });

  it('refuses an unknown profile and an unusable namespace, naming them', () => {
    expect(() => loadConfig(readCommonConfig, { SMSQ_PROFILE: 'C', SMSQ_NAMESPACE: 'a b' })).toThrow(/SMSQ_PROFILE[\s\S]*SMSQ_NAMESPACE|SMSQ_NAMESPACE[\s\S]*SMSQ_PROFILE/);
  });
});
