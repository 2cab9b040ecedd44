import 'reflect-metadata';
import { prepareSchema } from '@smsq/persistence';
import { createHttpAdapter, createLogger, loadConfigOrExit, raiseBodyLimit, readBodiesAsJson, startService } from '@smsq/platform';
import { BODY_LIMIT_BYTES, CREATE_TASKS_BODY_LIMIT_BYTES, TASK_STATUSES_BODY_LIMIT_BYTES } from '@smsq/contracts';
import { AppModule } from './app.module.js';
import { readGatewayConfig } from './config/gateway-config.js';
import { answerWrongMethodWith405 } from './http/method-not-allowed.js';
import { requireDocumentedRoutes } from './reference/documented-routes.js';

const config = loadConfigOrExit(readGatewayConfig);
// From here on the service connects as its own database role.
config.databaseUrl = await prepareSchema({ databaseUrl: config.databaseUrl, serviceDatabaseUrl: config.serviceDatabaseUrl, schema: 'gateway', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('gateway', config) });

const fastify = createHttpAdapter({ bodyLimit: BODY_LIMIT_BYTES });
// A body that is not JSON is refused only after the credential is checked (401 before 400).
readBodiesAsJson(fastify.getInstance(), { bodyLimit: BODY_LIMIT_BYTES, notJson: 'mark' });
answerWrongMethodWith405(fastify.getInstance());
requireDocumentedRoutes(fastify.getInstance());
raiseBodyLimit(fastify.getInstance(), ['/smsapi/create-tasks'], CREATE_TASKS_BODY_LIMIT_BYTES);
raiseBodyLimit(fastify.getInstance(), ['/smsapi/task-statuses'], TASK_STATUSES_BODY_LIMIT_BYTES);
await startService({ name: 'gateway', module: AppModule.register(config), config, port: config.port, consumes: 'gateway', fastify, bodyParser: false });
