import type { Logger } from '@nestjs/common';
import { describeDependencyFailure, serverAddress, type Dependency } from '../errors/dependency-failure.js';

type OutageLogger = Pick<Logger, 'warn' | 'log'>;

/** Per server (`RabbitMQ at host:port`), the connections of this process that lost it and have not had it back. */
const connectionsDown = new Map<string, Set<object>>();

function nameOf(dependency: Dependency): string {
  return `${dependency.kind} at ${serverAddress(dependency.url)}`;
}

/**
 * A connection lost its server, or failed to reach it; it retries by itself. The first of the
 * process's connections to that server says so in one line; the others (the RMQ server and each
 * client, Redis and its subscriptions) and every further attempt stay quiet until it is back.
 */
export function connectionLost(dependency: Dependency, connection: object, error: unknown, logger: OutageLogger): void {
  const name = nameOf(dependency);
  const down = connectionsDown.get(name) ?? new Set<object>();
  connectionsDown.set(name, down);
  const first = down.size === 0;
  down.add(connection);
  if (!first) return;
  const line = describeDependencyFailure(error, dependency) ?? `${name}: ${error instanceof Error ? error.message : String(error)}`;
  logger.warn(`${line}; retrying`);
}

/** A connection reached its server again; the last one back says so. */
export function connectionBack(dependency: Dependency, connection: object, logger: OutageLogger): void {
  const name = nameOf(dependency);
  const down = connectionsDown.get(name);
  if (!down?.delete(connection) || down.size > 0) return;
  logger.log(`${name} is reachable again`);
}

/** A connection closed for good (a shutdown) no longer waits for its server. */
export function connectionClosed(dependency: Dependency, connection: object): void {
  connectionsDown.get(nameOf(dependency))?.delete(connection);
}
