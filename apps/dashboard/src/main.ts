import 'reflect-metadata';
import { prepareSchema } from '@smsq/persistence';
import { createLogger, loadConfigOrExit, startService } from '@smsq/platform';
import { AppModule } from './app.module.js';
import { readDashboardConfig } from './config/dashboard-config.js';
import { configureDashboardHttp, dashboardFastify } from './http/dashboard-http.js';

const config = loadConfigOrExit(readDashboardConfig);
// From here on the service connects as its own database role.
config.databaseUrl = await prepareSchema({ databaseUrl: config.databaseUrl, serviceDatabaseUrl: config.serviceDatabaseUrl, schema: 'dashboard', migrationsUrl: new URL('../prisma/migrations', import.meta.url), logger: createLogger('dashboard', config) });
await startService({
  name: 'dashboard',
  module: AppModule.register(config),
  config,
  port: config.port,
  consumes: 'dashboard',
  fastify: dashboardFastify(config),
  bodyParser: false,
  configureHttp: configureDashboardHttp(config),
});
