import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, migrate } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readBillingConfig } from './config/billing-config.js';

const config = loadConfigOrExit(readBillingConfig);
// src/ and dist/ both sit one level under apps/billing, so this finds the migrations from either.
const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

await ensureDatabase(config.databaseUrl);
await migrate({ databaseUrl: config.databaseUrl, schema: 'billing', migrationsDir, logger: createLogger('billing', config) });
await startService({ name: 'billing', module: AppModule.register(config), config, port: config.port, consumes: 'billing' });
