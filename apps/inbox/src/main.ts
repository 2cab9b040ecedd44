import 'reflect-metadata';
import { prepareSchema } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readInboxConfig } from './config/inbox-config.js';

const config = loadConfigOrExit(readInboxConfig);
await prepareSchema({ databaseUrl: config.databaseUrl, schema: 'inbox', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('inbox', config) });
await startService({ name: 'inbox', module: AppModule.register(config), config, port: config.port, consumes: 'inbox' });
