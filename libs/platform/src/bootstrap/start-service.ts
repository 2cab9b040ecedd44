import type { ServiceName } from '@smsq/contracts';
import { Module, type DynamicModule, type LoggerService, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CommonConfig } from '../config/common-config.js';
import { AckAfterHandlingInterceptor } from '../messaging/ack.interceptor.js';
import { payloadValidationPipe } from '../messaging/payload-validation.pipe.js';
import { OpenDeliveries } from '../messaging/open-deliveries.js';
import { rmqServerOptions } from '../messaging/rmq-options.js';
import { declareServiceQueue, QueueMigrationRefused } from '../messaging/service-queue.js';
import { ServiceQueueServer } from '../messaging/service-queue-server.js';
import { ContractExceptionFilter } from '../errors/contract-exception.filter.js';
import { createLogger } from '../observability/logger.js';
import { metricsOf, type ServiceMetrics } from '../observability/metrics.js';
import { createHttpAdapter } from './http-adapter.js';
import { Liveness } from '../observability/liveness.js';
import { Readiness } from '../observability/readiness.js';
import { brokerAnswersAfresh } from '../messaging/broker-probe.js';
import { drainOnSignals } from './graceful-drain.js';
import { describeDependencyFailure } from '../errors/dependency-failure.js';
import { DependencyUnavailableError, startFinished } from './start-failures.js';
import { ServiceShutdown, ServiceShutdownModule } from './service-shutdown.js';

export interface ServiceStart {
  name: string;
  module: Type<unknown> | DynamicModule;
  config: CommonConfig;
  port: number;
  /** The queue this service consumes, if it consumes one. */
  consumes?: ServiceName;
  /** Changes to the HTTP app before it listens (public routes, body limits…). */
  fastify?: FastifyAdapter;
  /** false when the app installs its own body parsers. */
  bodyParser?: boolean;
  configureHttp?: (app: NestFastifyApplication) => void;
}

@Module({})
class ServiceRootModule {}

/**
 * Builds one service: its HTTP server (health, metrics and whatever routes it has) and, when it
 * consumes a queue, the RMQ microservice with strict payload validation, ack-after-commit and
 * dead-lettering. SIGTERM and SIGINT drain it (`drainOnSignals`).
 */
export async function startService(start: ServiceStart): Promise<NestFastifyApplication> {
  const logger: LoggerService = createLogger(start.name, start.config);
  const root: DynamicModule = { module: ServiceRootModule, imports: [start.module, ServiceShutdownModule] };
  const app = await NestFactory.create<NestFastifyApplication>(root, start.fastify ?? createHttpAdapter(), { logger, bodyParser: start.bodyParser ?? true });
  const deliveries = new OpenDeliveries();
  const metrics = metricsOf(start.name);
  metrics.labelWithProfile(start.config.profile);
  timeHttpRequests(app, metrics);
  // A connected microservice takes its globals from the app, so they serve both transports.
  app.useGlobalPipes(payloadValidationPipe());
  app.useGlobalFilters(new ContractExceptionFilter());
  app.useGlobalInterceptors(new AckAfterHandlingInterceptor(deliveries, metrics));
  start.configureHttp?.(app);
  const shutdown = app.get(ServiceShutdown);
  // A kept-alive connection would hold the server's close open after its last answer.
  app.getHttpAdapter().getInstance().addHook('onSend', async (_request, reply) => {
    if (shutdown.started) void reply.header('connection', 'close');
  });

  let server: ServiceQueueServer | undefined;
  if (start.consumes) {
    await declareServiceQueue(start.config, start.consumes, logger).catch((error: unknown) => {
      if (error instanceof QueueMigrationRefused) {
        logger.error(error.message);
        process.exit(1);
      }
      const line = describeDependencyFailure(error, { kind: 'RabbitMQ', url: start.config.amqpUrl });
      throw line ? new DependencyUnavailableError(line, { cause: error }) : error;
    });
    server = new ServiceQueueServer(rmqServerOptions(start.config, start.consumes).options!, deliveries);
    const microservice = app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
    let brokerStatus = 'connecting';
    // After an alarm the broker unblocks the connection; until the next reconnect its status stays `unblocked`.
    microservice.status.subscribe((status) => (brokerStatus = status === 'unblocked' ? 'connected' : status));
    const consuming = server;
    app.get(Readiness).register(
      'broker',
      async () => {
        if (brokerStatus !== 'connected') throw new Error(`broker ${brokerStatus}`);
        await consuming.probe.roundTrip();
      },
      { reachable: () => brokerAnswersAfresh(start.config.amqpUrl), alive: () => brokerStatus === 'blocked' },
    );
    await app.startAllMicroservices();
  }

  await app.listen({ port: start.port, host: '0.0.0.0' });
  startFinished();
  app.get(Liveness).start(start.config.stuckLimitS * 1000);
  drainOnSignals({ name: start.name, app, shutdown, deliveries, server, logger });
  logger.log(`${start.name} listening on :${start.port} (profile ${start.config.profile}, namespace ${start.config.namespace})`);
  return app;
}

/** Every answer's latency by route template (never the URL itself, whose ids would make a series each), method and status. */
function timeHttpRequests(app: NestFastifyApplication, metrics: ServiceMetrics): void {
  app.getHttpAdapter().getInstance().addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    metrics.httpRequestDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
