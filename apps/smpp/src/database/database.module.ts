import { Global, Module } from '@nestjs/common';
import { SmppConfig } from '../config/smpp-config.js';
import { DatabaseReadiness } from './database-readiness.js';
import { SmppDatabase } from './smpp-database.js';

// Global modules are destroyed last, so the database outlives every provider that still uses it on shutdown.
@Global()
@Module({
  providers: [{ provide: SmppDatabase, useFactory: (config: SmppConfig) => new SmppDatabase(config.databaseUrl), inject: [SmppConfig] }, DatabaseReadiness],
  exports: [SmppDatabase],
})
export class DatabaseModule {}
