/**
 * The messages this process has received and not yet acknowledged or rejected, so a shutdown can
 * stop consuming and then wait for exactly those.
 */
export class OpenDeliveries {
  private readonly open = new Set<object>();
  private readonly inHandler = new WeakSet<object>();
  private readonly idle: Array<() => void> = [];
  private readonly replies = new Set<Promise<unknown>>();

  received(message: object): void {
    this.open.add(message);
  }

  /** A handler took the message; it stays open until `settled`. */
  handling(message: object): void {
    this.inHandler.add(message);
  }

  isHandled(message: object): boolean {
    return this.inHandler.has(message);
  }

  settled(message: object): void {
    this.open.delete(message);
    if (this.open.size === 0) for (const wake of this.idle.splice(0)) wake();
  }

  /** A reply on its way to the broker; Nest publishes it just after the handler's message was settled. */
  replying(published: Promise<unknown>): void {
    const tracked = published.catch(() => undefined).finally(() => this.replies.delete(tracked));
    this.replies.add(tracked);
  }

  get count(): number {
    return this.open.size;
  }

  /** Resolves once no message is open and every reply has been confirmed by the broker (or failed). */
  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.open.size > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
      // Nest schedules a reply on the next tick after the handler's stream ended.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.replies.size > 0) await Promise.all(this.replies);
      else if (this.open.size === 0) return;
    }
  }
}
