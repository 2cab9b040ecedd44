import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import { ensureDatabase, migrate } from '@smsq/persistence';
import { loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readDispatchConfig } from './config/dispatch-config.js';

const config = loadConfigOrExit(readDispatchConfig);
await ensureDatabase(config.databaseUrl);
await migrate({
  databaseUrl: config.databaseUrl,
  schema: 'dispatch',
  // One level below the app in both src/ and dist/.
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  logger: new Logger('DispatchMigrations'),
});
await startService({ name: 'dispatch', module: AppModule.register(config), config, port: config.port, consumes: 'dispatch' });
