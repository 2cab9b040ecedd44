import type { ServiceName } from '@smsq/contracts';
import { type DynamicModule, type LoggerService, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CommonConfig } from '../config/common-config.js';
import { AckAfterHandlingInterceptor } from '../messaging/ack.interceptor.js';
import { payloadValidationPipe } from '../messaging/payload-validation.pipe.js';
import { rmqServerOptions } from '../messaging/rmq-options.js';
import { ContractExceptionFilter } from '../errors/contract-exception.filter.js';
import { createLogger } from '../observability/logger.js';
import { createHttpAdapter } from './http-adapter.js';
import { Readiness } from '../observability/readiness.js';

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

/**
 * Builds one service: its HTTP server (health, metrics and whatever routes it has) and, when it
 * consumes a queue, the RMQ microservice with strict payload validation and ack-after-commit.
 */
export async function startService(start: ServiceStart): Promise<NestFastifyApplication> {
  const logger: LoggerService = createLogger(start.name, start.config);
  const app = await NestFactory.create<NestFastifyApplication>(start.module, start.fastify ?? createHttpAdapter(), { logger, bodyParser: start.bodyParser ?? true });
  app.enableShutdownHooks();
  // A connected microservice takes its globals from the app, so they serve both transports.
  app.useGlobalPipes(payloadValidationPipe());
  app.useGlobalFilters(new ContractExceptionFilter());
  app.useGlobalInterceptors(new AckAfterHandlingInterceptor());
  start.configureHttp?.(app);

  if (start.consumes) {
    const microservice = app.connectMicroservice(rmqServerOptions(start.config, start.consumes), { inheritAppConfig: true });
    let brokerStatus = 'connecting';
    microservice.status.subscribe((status) => (brokerStatus = status));
    app.get(Readiness).register('broker', async () => {
      if (brokerStatus !== 'connected') throw new Error(`broker ${brokerStatus}`);
    });
    await app.startAllMicroservices();
  }

  await app.listen({ port: start.port, host: '0.0.0.0' });
  logger.log(`${start.name} listening on :${start.port} (profile ${start.config.profile}, namespace ${start.config.namespace})`);
  return app;
}
