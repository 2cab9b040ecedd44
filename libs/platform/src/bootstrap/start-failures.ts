import type { LoggerService } from '@nestjs/common';
import type { CommonConfig } from '../config/common-config.js';
import { describeStartFailure, type Dependency } from '../errors/dependency-failure.js';

/** A server the service needs was down or refused the login while it started; the message is the one line that says so. */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
}

export type ServerUrls = Partial<Pick<CommonConfig, 'databaseUrl' | 'amqpUrl' | 'redisUrl'>>;

/** The service starting now (services sharing a process start one after the other), read when an error comes: its database URL changes once its schema is ready. */
let starting: { logger: LoggerService; servers: ServerUrls } | undefined;
let watching = false;

/**
 * From now until the service listens (`startFinished`), an uncaught error saying that one of its
 * servers is down or refused the login (its database preparation in `main.ts`, its queue
 * declaration) stops the process with one line, `cannot start: PostgreSQL at 127.0.0.1:5432 is
 * not reachable (connection refused)`, and exit code 1 as before, instead of Node's stack trace.
 * Any other error keeps Node's own report, and where something else handles uncaught errors (a
 * test runner) they are left to it.
 */
export function reportStartFailures(logger: LoggerService, servers: ServerUrls): void {
  starting = { logger, servers };
  if (watching) return;
  watching = true;
  process.on('uncaughtExceptionMonitor', (error) => {
    if (!starting || process.listenerCount('uncaughtException') > 0) return;
    const line = startFailureLine(error, starting.servers);
    if (!line) return;
    starting.logger.error(`cannot start: ${line}`);
    process.exit(1);
  });
}

export function startFinished(): void {
  starting = undefined;
}

/** The line for an error that stopped a start, when a server it needs was its cause. */
export function startFailureLine(error: unknown, servers: ServerUrls): string | undefined {
  if (error instanceof DependencyUnavailableError) return error.message;
  const dependencies: Dependency[] = [];
  if (servers.databaseUrl) dependencies.push({ kind: 'PostgreSQL', url: servers.databaseUrl });
  if (servers.amqpUrl) dependencies.push({ kind: 'RabbitMQ', url: servers.amqpUrl });
  if (servers.redisUrl) dependencies.push({ kind: 'Redis', url: servers.redisUrl });
  return describeStartFailure(error, dependencies);
}
