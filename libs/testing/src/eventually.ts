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
