import { Injectable, type OnModuleInit } from '@nestjs/common';
import { databaseAnswersAfresh } from '@smsq/persistence';
import { Readiness } from '@smsq/platform';
import { SmppConfig } from '../config/smpp-config.js';
import { SmppDatabase } from './smpp-database.js';

@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    private readonly database: SmppDatabase,
    private readonly config: SmppConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.$queryRaw`SELECT 1`, {
      reachable: () => databaseAnswersAfresh(this.config.databaseUrl),
      alive: () => this.database.progress.answering(),
    });
  }
}
