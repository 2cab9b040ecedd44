import { Module } from '@nestjs/common';
import { DatabaseReadiness } from './database-readiness.js';
import { DispatchDatabase } from './dispatch-database.js';

@Module({
  providers: [DispatchDatabase, DatabaseReadiness],
  exports: [DispatchDatabase],
})
export class DatabaseModule {}
