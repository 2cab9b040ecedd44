import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe(eventually.name, () => {
  it('answers as soon as the check passes', async () => {
    let calls = 0;
    const value = await eventually(() => {
      calls += 1;
      if (calls < 3) throw new Error('not yet');
      return 'done';
    }, { intervalMs: 1 });
    expect(value).toBe('done');
    expect(calls).toBe(3);
  });

  it("fails with the check's last failure when the deadline passes", async () => {
    await expect(eventually(() => Promise.reject(new Error('still wrong')), { timeoutMs: 30, intervalMs: 5 })).rejects.toThrow('still wrong');
  });
});
