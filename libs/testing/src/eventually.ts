/** Polls until the check passes or the deadline comes; the last failure is the test's failure. */
export async function eventually<T>(check: () => Promise<T> | T, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
    }
  }
}

/** Polls until `condition` holds, for a state to wait for rather than an assertion. */
export async function until(condition: () => boolean | Promise<boolean>, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<void> {
  await eventually(
    async () => {
      if (!(await condition())) throw new Error(`still not true after ${options.timeoutMs ?? 10_000} ms: ${condition.toString()}`);
    },
    { intervalMs: 20, ...options },
  );
}
