import 'reflect-metadata';
import { prepareSchema } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readBillingConfig } from './config/billing-config.js';

const config = loadConfigOrExit(readBillingConfig);
// From here on the service connects as its own database role.
config.databaseUrl = await prepareSchema({ databaseUrl: config.databaseUrl, serviceDatabaseUrl: config.serviceDatabaseUrl, schema: 'billing', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('billing', config) });
await startService({ name: 'billing', module: AppModule.register(config), config, port: config.port, consumes: 'billing' });
