import { Logger } from '@nestjs/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RepeatingJob } from './repeating-job.js';

const INTERVAL_MS = 100;

describe(RepeatingJob.name, () => {
  let runs: number;
  let finishRun: () => void;
  let sut: RepeatingJob;

  beforeEach(() => {
    vi.useFakeTimers();
    runs = 0;
    sut = new RepeatingJob(
      'test job',
      INTERVAL_MS,
      () => {
        runs += 1;
        return new Promise<void>((resolve) => (finishRun = resolve));
      },
      new Logger('test'),
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('never starts a run while the previous one is still going', async () => {
    sut.start();
    await vi.advanceTimersByTimeAsync(INTERVAL_MS * 10);
    expect(runs).toBe(1);

    finishRun();
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(runs).toBe(2);
    finishRun();
    await sut.stop();
  });

  it('keeps going after a run fails', async () => {
    const failing = new RepeatingJob('failing job', INTERVAL_MS, () => Promise.reject(new Error('boom')), new Logger('test', { timestamp: false }));
    const logged = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    failing.start();

    await vi.advanceTimersByTimeAsync(INTERVAL_MS * 3 + 1);

    expect(logged).toHaveBeenCalledTimes(3);
    await failing.stop();
    logged.mockRestore();
  });

  it('says once in one line that its runs fail because a server is away, and when they work again', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    let away = true;
    const logger = { error: vi.fn(), warn: vi.fn(), log: vi.fn() };
    const job = new RepeatingJob('lease expiry', INTERVAL_MS, () => (away ? Promise.reject(refused) : Promise.resolve()), logger as unknown as Logger);
    job.start();

    await vi.advanceTimersByTimeAsync(INTERVAL_MS * 3 + 1);
    away = false;
    await vi.advanceTimersByTimeAsync(INTERVAL_MS * 2);

    expect(logger.warn.mock.calls).toEqual([['lease expiry failed: connect ECONNREFUSED 127.0.0.1:5432; retrying']]);
    expect(logger.log.mock.calls).toEqual([['lease expiry succeeded again']]);
    expect(logger.error).not.toHaveBeenCalled();
    await job.stop();
  });

  it('waits for the run under way when stopped, and starts no other', async () => {
    sut.start();
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    let stopped = false;
    const stopping = sut.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);

    finishRun();
    await stopping;
    await vi.advanceTimersByTimeAsync(INTERVAL_MS * 10);
    expect(runs).toBe(1);
  });

  it('runs at once when asked to run soon, or straight after the run under way, and then keeps its interval', async () => {
    sut.start();
    sut.runSoon();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);

    sut.runSoon();
    sut.runSoon();
    finishRun();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    finishRun();
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(3);
    finishRun();
    await sut.stop();
  });
});
