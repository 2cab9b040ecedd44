import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.js';

describe(Readiness.name, () => {
  it('is ready only when every check passes, and says what failed', async () => {
    const sut = new Readiness();
    sut.register('database', async () => undefined);
    sut.register('broker', async () => {
      throw new Error('broker disconnected');
    });
    expect(await sut.report()).toEqual({ ready: false, checks: { database: 'ok', broker: 'broker disconnected' } });
  });

  it('counts a check that does not answer in time as failed', async () => {
    const sut = new Readiness();
    sut.register('redis', () => new Promise(() => undefined));
    const report = await sut.report(50);
    expect(report.ready).toBe(false);
    expect(report.checks['redis']).toContain('no answer');
  });
});
