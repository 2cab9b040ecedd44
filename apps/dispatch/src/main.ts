import 'reflect-metadata';
import { prepareSchema } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readDispatchConfig } from './config/dispatch-config.js';

const config = loadConfigOrExit(readDispatchConfig);
// From here on the service connects as its own database role.
config.databaseUrl = await prepareSchema({ databaseUrl: config.databaseUrl, serviceDatabaseUrl: config.serviceDatabaseUrl, schema: 'dispatch', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('dispatch', config) });
await startService({ name: 'dispatch', module: AppModule.register(config), config, port: config.port, consumes: 'dispatch' });
