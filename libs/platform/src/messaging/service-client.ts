import { domainErrorFrom, UnavailableError } from '@smsq/contracts';
import type { ServiceMetrics } from '../observability/metrics.js';
import { Logger } from '@nestjs/common';
import { RmqRecord, type ClientProxy, type RmqRecordOptions } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { ServiceQueueClient } from './service-queue-client.js';

/**
 * Request/response to one service over the broker. A domain error comes back as the same
 * DomainError; a broker or service that does not answer in time is `unavailable`.
 */
export class ServiceClient {
  private readonly logger: Logger;

  constructor(
    readonly service: string,
    private readonly proxy: ClientProxy,
    private readonly timeoutMs: number,
    /** The calling service's metrics, which time each request; none for a client outside a service (the admin CLI, tests). */
    private readonly metrics?: ServiceMetrics,
  ) {
    this.logger = new Logger(`ServiceClient(${service})`);
  }

  async send<TResult>(pattern: string, payload: object, options: { timeoutMs?: number } = {}): Promise<TResult> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // A request nobody takes in time expires on the broker instead of waiting for a consumer that comes back later.
    const record = new RmqRecord(payload, { expiration: String(timeoutMs), persistent: true, ...publishedWithin(timeoutMs) });
    const stopTimer = this.metrics?.brokerRequestDuration.startTimer({ pattern });
    try {
      const answer = await firstValueFrom(this.proxy.send<TResult>(pattern, record).pipe(timeout(timeoutMs)));
      stopTimer?.({ outcome: 'ok' });
      return answer;
    } catch (error) {
      const domainError = domainErrorFrom(error);
      stopTimer?.({ outcome: domainError ? 'refused' : 'unavailable' });
      if (domainError) throw domainError;
      this.logger.warn(`${pattern} failed: ${describe(error)}`);
      throw new UnavailableError(`the ${this.service} service did not answer; retry later`);
    }
  }

  /** Fire-and-forget notification; returns once the broker has the message. */
  async emit(pattern: string, payload: object): Promise<void> {
    try {
      const record = new RmqRecord(payload, publishedWithin(this.timeoutMs));
      await firstValueFrom(this.proxy.emit(pattern, record).pipe(timeout(this.timeoutMs)), { defaultValue: undefined });
    } catch (error) {
      this.logger.warn(`${pattern} not published: ${describe(error)}`);
      throw new UnavailableError(`the ${this.service} service is not reachable; retry later`);
    }
  }

  /** The broker holds this client's publishing back (an alarm). */
  get blocked(): boolean {
    return this.proxy instanceof ServiceQueueClient && this.proxy.blocked;
  }

  /** A round trip to the broker on this client's connection; a client of another kind has none to make. */
  async probe(): Promise<void> {
    if (this.proxy instanceof ServiceQueueClient) await this.proxy.probe();
  }

  close(): Promise<void> {
    return Promise.resolve(this.proxy.close());
  }
}

/**
 * The connection manager keeps a message it could not publish (or the broker never confirmed)
 * and sends it again once it reconnects, however late. By then its caller has given up: a
 * request would be done for nobody (a task created after its client was told "not queued", to be
 * failed and refunded), an event published twice after the outbox's own retry. Past the caller's
 * timeout the manager drops it instead; `timeout` is its option, not AMQP's, so Nest's record type
 * does not list it.
 */
function publishedWithin(timeoutMs: number): RmqRecordOptions {
  const options: RmqRecordOptions & { timeout: number } = { timeout: timeoutMs };
  return options;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return JSON.stringify(error);
}
