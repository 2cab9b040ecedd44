import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Readiness } from '@smsq/platform';
import { DispatchDatabase } from './dispatch-database.js';

/** `/readyz` reports the database reachable only when it answers a query. */
@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    private readonly db: DispatchDatabase,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.db.$queryRaw`SELECT 1`);
  }
}
