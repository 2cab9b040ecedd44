import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { requestSignal } from './request-signal.js';

describe('requestSignal', () => {
  it('aborts with a TimeoutError once the time is up', async () => {
    const { signal, release } = requestSignal(20);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
    release();
  });

  it("aborts with the caller's reason when the caller aborts, or at once when it already has", () => {
    const caller = new AbortController();
    const running = requestSignal(10_000, caller.signal);
    caller.abort(new Error('stopping'));
    expect(running.signal.aborted).toBe(true);
    expect((running.signal.reason as Error).message).toBe('stopping');
    running.release();
    const late = requestSignal(10_000, caller.signal);
    expect((late.signal.reason as Error).message).toBe('stopping');
    late.release();
  });

  it("leaves nothing on a long-lived caller's signal once released, however many requests ran", () => {
    const worker = new AbortController();
    for (let index = 0; index < 1_000; index++) requestSignal(10_000, worker.signal).release();
    expect(getEventListeners(worker.signal, 'abort')).toHaveLength(0);
    const released = requestSignal(10_000, worker.signal);
    released.release();
    worker.abort();
    expect(released.signal.aborted).toBe(false);
  });
});
