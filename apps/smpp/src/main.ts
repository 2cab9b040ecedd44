import 'reflect-metadata';
import { prepareSchema } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readSmppConfig } from './config/smpp-config.js';

const config = loadConfigOrExit(readSmppConfig);
// From here on the service connects as its own database role.
config.databaseUrl = await prepareSchema({ databaseUrl: config.databaseUrl, serviceDatabaseUrl: config.serviceDatabaseUrl, schema: 'smpp', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('smpp', config) });
await startService({ name: 'smpp', module: AppModule.register(config), config, port: config.httpPort, consumes: 'smpp' });
