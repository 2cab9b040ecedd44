import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenDeliveries } from '../messaging/open-deliveries.js';
import type { ServiceQueueServer } from '../messaging/service-queue-server.js';
import type { ServiceShutdown } from './service-shutdown.js';

/** Past this, a drain that has not finished gives up and the process exits with an error. */
export const DRAIN_LIMIT_MS = 30_000;

export interface Drainable {
  /** The service's name, the context of its drain lines. */
  name: string;
  app: NestFastifyApplication;
  shutdown: ServiceShutdown;
  deliveries: OpenDeliveries;
  server?: ServiceQueueServer;
  logger: LoggerService;
}

/**
 * Stops a service without dropping work: long polls are told to answer, the broker consumer is
 * cancelled, the HTTP server stops accepting and finishes the requests it has, the messages
 * already received are handled and acknowledged; only then does Nest close the rest (jobs,
 * database, broker and Redis connections). Nest's own shutdown hooks close the database first,
 * under requests still running, which is why signals are handled here instead.
 */
export async function drain(service: Drainable): Promise<void> {
  const { app, shutdown, deliveries, server, logger } = service;
  shutdown.begin();
  await server?.stopConsuming();
  logger.log(`draining: ${deliveries.count} broker message(s) in hand`);
  await Promise.all([app.getHttpAdapter().close(), deliveries.whenIdle()]);
  await app.close();
}

/** The services this process runs: one, or several when they share a process (scripts/core.mjs). */
const servicesOfThisProcess: Drainable[] = [];

/**
 * SIGTERM or SIGINT drains the service and exits 0; a second signal, or a drain longer than
 * `DRAIN_LIMIT_MS`, exits 1 at once (unacknowledged messages go back to the queue). Services that
 * share a process drain one after another, the last started first, so the public API finishes
 * its requests while the services it calls still answer, and the process exits once all are done.
 */
export function drainOnSignals(service: Drainable, exit: (code: number) => void = (code) => process.exit(code)): void {
  servicesOfThisProcess.push(service);
  if (servicesOfThisProcess.length > 1) return;
  let draining = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    const services = [...servicesOfThisProcess].reverse();
    if (draining) {
      for (const { logger, name } of services) logger.warn(`${signal} again: exiting without finishing`, name);
      return exit(1);
    }
    draining = true;
    for (const { logger, name } of services) logger.log(`${signal}: finishing requests and messages in hand, then exiting`, name);
    const limit = setTimeout(() => {
      services[0]!.logger.error(`drain not finished after ${DRAIN_LIMIT_MS} ms: exiting`);
      exit(1);
    }, DRAIN_LIMIT_MS);
    limit.unref();
    drainInTurn(services).then(
      () => {
        clearTimeout(limit);
        exit(0);
      },
      (error: unknown) => {
        services[0]!.logger.error(`drain failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function drainInTurn(services: Drainable[]): Promise<void> {
  for (const service of services) {
    await drain(service);
    service.logger.log('drained', service.name);
  }
}
