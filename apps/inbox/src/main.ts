import 'reflect-metadata';
import { prepareSchema } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readInboxConfig } from './config/inbox-config.js';

const config = loadConfigOrExit(readInboxConfig);
// From here on the service connects as its own database role.
config.databaseUrl = await prepareSchema({ databaseUrl: config.databaseUrl, serviceDatabaseUrl: config.serviceDatabaseUrl, schema: 'inbox', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('inbox', config) });
await startService({ name: 'inbox', module: AppModule.register(config), config, port: config.port, consumes: 'inbox' });
