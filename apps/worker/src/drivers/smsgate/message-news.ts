/**
 * Wakes whoever follows a message when a webhook says something happened to it, so the follower
 * asks the app at once instead of at its next poll. The webhook is only a hint: the state always
 * comes from `GET /message/{id}`.
 */
export class MessageNews {
  private readonly waiting = new Map<string, Set<() => void>>();

  notify(messageId: string): void {
    for (const wake of this.waiting.get(messageId) ?? []) wake();
  }

  /** Resolves after `ms`, on news of the message, or when `signal` aborts; never rejects. */
  wait(messageId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted || ms <= 0) return resolve();
      const wake = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        const set = this.waiting.get(messageId);
        set?.delete(wake);
        if (set?.size === 0) this.waiting.delete(messageId);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      signal.addEventListener('abort', wake, { once: true });
      const set = this.waiting.get(messageId) ?? new Set();
      set.add(wake);
      this.waiting.set(messageId, set);
    });
  }
}
