import 'reflect-metadata';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { prepareSchema } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readGatewayConfig } from './config/gateway-config.js';
import { answerWrongMethodWith405 } from './http/method-not-allowed.js';
import { BODY_LIMIT_BYTES, readBodiesAsJson } from './http/json-body.js';

const config = loadConfigOrExit(readGatewayConfig);
await prepareSchema({ databaseUrl: config.databaseUrl, schema: 'gateway', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('gateway', config) });

const fastify = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, routerOptions: { ignoreTrailingSlash: true } });
readBodiesAsJson(fastify.getInstance());
answerWrongMethodWith405(fastify.getInstance());
await startService({ name: 'gateway', module: AppModule.register(config), config, port: config.port, consumes: 'gateway', fastify, bodyParser: false });
