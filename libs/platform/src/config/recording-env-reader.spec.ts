import { describe, expect, it } from 'vitest';
import { readCommonConfig } from './common-config.js';
import { EnvReader } from './env-reader.js';
import { RecordingEnvReader } from './recording-env-reader.js';
import { readTaskRetentionDays } from './retention-settings.js';
import { SETTING_MEANINGS } from './setting-meanings.js';

describe(RecordingEnvReader.name, () => {
  it('reads exactly as the EnvReader does, problems included', () => {
    const env = { SMSQ_PROFILE: 'b', SMSQ_RPC_TIMEOUT_MS: '50', AMQP_URL: 'amqps://rabbit:5671' };
    const sut = new RecordingEnvReader(env);
    const plain = new EnvReader(env);

    expect(readCommonConfig(sut)).toEqual(readCommonConfig(plain));
    expect(() => sut.done()).toThrow('SMSQ_RPC_TIMEOUT_MS must be an integer from 100 to 120000');
  });

  it('notes each variable with its kind, default and range', () => {
    const sut = new RecordingEnvReader({});

    sut.string('NAME', 'smsq');
    sut.string('NEEDED');
    sut.int('COUNT', 3, { min: 1 });
    sut.port('SOME_PORT', 3011);
    sut.bool('FLAG', false);
    sut.oneOf('MODE', ['a', 'b'] as const, 'a');
    sut.url('SOME_URL', 'redis://127.0.0.1:6379', ['redis', 'rediss']);
    sut.optionalUrl('OWN_URL', ['postgresql']);

    expect(sut.settings()).toEqual([
      { name: 'NAME', kind: 'string', optional: false, required: false, fallback: 'smsq' },
      { name: 'NEEDED', kind: 'string', optional: false, required: true },
      { name: 'COUNT', kind: 'int', optional: false, required: false, fallback: 3, min: 1 },
      { name: 'SOME_PORT', kind: 'port', optional: false, required: false, fallback: 3011, min: 0, max: 65_535 },
      { name: 'FLAG', kind: 'bool', optional: false, required: false, fallback: false },
      { name: 'MODE', kind: 'oneOf', optional: false, required: false, fallback: 'a', allowed: ['a', 'b'] },
      { name: 'SOME_URL', kind: 'url', optional: false, required: false, fallback: 'redis://127.0.0.1:6379', protocols: ['redis', 'rediss'] },
      { name: 'OWN_URL', kind: 'url', optional: true, required: false, protocols: ['postgresql'] },
    ]);
  });

  it('takes a typed read behind an optional one as optional, with no default', () => {
    const sut = new RecordingEnvReader({ SMSQ_TASK_RETENTION_DAYS: '30' });

    expect(readTaskRetentionDays(sut)).toBe(30);
    expect(sut.settings()).toEqual([{ name: 'SMSQ_TASK_RETENTION_DAYS', kind: 'int', optional: true, required: false, min: 1, max: 3_650 }]);
  });

  it('lists every setting the common configuration reads, each with a meaning', () => {
    const sut = new RecordingEnvReader({});

    readCommonConfig(sut);

    const names = sut.settings().map((setting) => setting.name);
    expect(names).toEqual(expect.arrayContaining(['SMSQ_PROFILE', 'DATABASE_URL', 'AMQP_URL', 'REDIS_URL', 'SMSQ_NAMESPACE', 'SMSQ_QUEUE_TYPE', 'SMSQ_LOG_FORMAT']));
    for (const name of names) expect(SETTING_MEANINGS[name], name).toBeDefined();
  });
});
