import { Injectable, type OnModuleInit } from '@nestjs/common';
import { databaseAnswersAfresh } from '@smsq/persistence';
import { Readiness } from '@smsq/platform';
import { DispatchConfig } from '../config/dispatch-config.js';
import { DispatchDatabase } from './dispatch-database.js';

/** `/readyz` reports the database reachable only when it answers a query. */
@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    private readonly db: DispatchDatabase,
    private readonly config: DispatchConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.db.sql.$queryRaw`SELECT 1`, {
      reachable: () => databaseAnswersAfresh(this.config.databaseUrl),
      alive: () => this.db.progress.answering(),
    });
  }
}
